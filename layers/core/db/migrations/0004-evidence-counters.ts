/**
 * Evidence counts kept on the investigation row, so the evidence check before generation (assess)
 * reads one row instead of counting 100,000 evidence items (it must answer in well under 100 ms).
 * Statement-level triggers with transition tables keep them exact for single rows and bulk loads
 * alike, including cascaded deletes. Attachments carry their investigation (filled on insert) so
 * their count needs no join, and a cascaded delete still knows whose count to lower.
 */
import { sql, type Kysely } from 'kysely';

const NON_BLANK = `~ '[^[:space:]]'`;

/**
 * The counting functions, as this migration made them and as 0017 replaces them (`onlyChanges`: the investigation's
 * row is updated only when a count changes, so a write that changes none does not lock it until commit).
 */
export const countEvidenceFunction = ({ onlyChanges }: { onlyChanges: boolean }) =>
  `create or replace function count_evidence() returns trigger language plpgsql as $$
   begin
     execute format('update investigations i set
         evidence_count = i.evidence_count + d.items,
         content_evidence_count = i.content_evidence_count + d.with_content
       from (select investigation_id, sum(sign)::int as items, sum(case when content ${NON_BLANK.replace(/'/g, "''")} then sign else 0 end)::int as with_content
             from (%s) changes group by investigation_id) d
       where i.id = d.investigation_id${onlyChanges ? ' and (d.items <> 0 or d.with_content <> 0)' : ''}', changed_rows(tg_op, 'investigation_id, content'));
     return null;
   end $$`;

export const countAttachmentsFunction = ({ onlyChanges }: { onlyChanges: boolean }) =>
  `create or replace function count_attachments() returns trigger language plpgsql as $$
   begin
     execute format('update investigations i set attachment_count = i.attachment_count + d.n
       from (select investigation_id, sum(sign)::int as n from (%s) changes group by investigation_id) d
       where i.id = d.investigation_id${onlyChanges ? ' and d.n <> 0' : ''}', changed_rows(tg_op, 'investigation_id'));
     return null;
   end $$`;

const up = [
  `alter table attachments add column investigation_id uuid references investigations(id) on delete cascade`,
  `update attachments a set investigation_id = e.investigation_id from evidence_items e where e.id = a.evidence_item_id`,
  `alter table attachments alter column investigation_id set not null`,
  `create index attachments_investigation_idx on attachments (investigation_id)`,
  `create function attachments_fill_investigation() returns trigger language plpgsql as $$
   begin
     select investigation_id into new.investigation_id from evidence_items where id = new.evidence_item_id;
     return new;
   end $$`,
  `create trigger attachments_fill_investigation before insert or update of evidence_item_id on attachments
     for each row execute function attachments_fill_investigation()`,

  `alter table investigations
     add column evidence_count int not null default 0,
     add column content_evidence_count int not null default 0,
     add column attachment_count int not null default 0`,
  `update investigations i set
     evidence_count = (select count(*) from evidence_items e where e.investigation_id = i.id),
     content_evidence_count = (select count(*) from evidence_items e where e.investigation_id = i.id and e.content ${NON_BLANK}),
     attachment_count = (select count(*) from attachments a where a.investigation_id = i.id)`,

  // delta rows: +1 for each new row, -1 for each old one (an update is both); a statement's transition
  // tables exist only for its own event, hence the rows' source chosen by TG_OP
  `create function changed_rows(op text, columns text) returns text language sql immutable as $$
     select case op
       when 'INSERT' then format('select %s, 1 as sign from new_rows', columns)
       when 'DELETE' then format('select %s, -1 as sign from old_rows', columns)
       else format('select %1$s, 1 as sign from new_rows union all select %1$s, -1 from old_rows', columns)
     end $$`,
  countEvidenceFunction({ onlyChanges: false }),
  countAttachmentsFunction({ onlyChanges: false }),
];

// Transition tables are declared per event, so each event has its own trigger.
const eventTriggers = (table: string, fn: string) => [
  `create trigger ${table}_count_insert after insert on ${table} referencing new table as new_rows
     for each statement execute function ${fn}()`,
  `create trigger ${table}_count_delete after delete on ${table} referencing old table as old_rows
     for each statement execute function ${fn}()`,
  `create trigger ${table}_count_update after update on ${table} referencing old table as old_rows new table as new_rows
     for each statement execute function ${fn}()`,
];

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      ...up,
      ...eventTriggers('evidence_items', 'count_evidence'),
      ...eventTriggers('attachments', 'count_attachments'),
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      'drop trigger if exists evidence_items_count_insert on evidence_items',
      'drop trigger if exists evidence_items_count_delete on evidence_items',
      'drop trigger if exists evidence_items_count_update on evidence_items',
      'drop trigger if exists attachments_count_insert on attachments',
      'drop trigger if exists attachments_count_delete on attachments',
      'drop trigger if exists attachments_count_update on attachments',
      'drop trigger if exists attachments_fill_investigation on attachments',
      'drop function if exists count_evidence()',
      'drop function if exists count_attachments()',
      'drop function if exists changed_rows(text, text)',
      'drop function if exists attachments_fill_investigation()',
      'alter table investigations drop column evidence_count, drop column content_evidence_count, drop column attachment_count',
      'alter table attachments drop column investigation_id',
    ])
      await sql.raw(statement).execute(db);
  },
};
