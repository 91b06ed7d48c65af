/**
 * The rest of the counts the evidence check before generation (analysis/assess.ts) answers with, kept up to
 * date incrementally as migration 0004 keeps the evidence counts, so the check reads a handful of rows
 * whatever the investigation's size (issue 17: p99 ≤ 10 ms at 100,000 evidence items):
 * - questions.linked_evidence_count: the question's links whose evidence item belongs to the question's own
 *   investigation (the only links assess counted: a link across investigations, which no route creates, is not
 *   evidence of the question). Counting them joined every link to its evidence item: a scan of the
 *   investigation's evidence at 100k items. Whether a link counts is decided when it is written and kept on
 *   the link (`same_investigation`), so a delete — cascaded from its evidence item, whose row is gone by the
 *   time the links' trigger runs — still knows what to subtract; an evidence item or question moved to another
 *   investigation re-decides its links.
 * - investigations.background_document_count / background_included_count: the investigation's background
 *   documents, and those included for the AI.
 * Statement-level triggers with transition tables, as in 0004: exact for single rows, bulk imports and
 * cascaded deletes; the counter rows are updated in the writing transaction, so concurrent writers queue on
 * the counted row and each adds its own delta.
 */
import { sql, type Kysely } from 'kysely';

const SAME_INVESTIGATION = `exists (select 1 from evidence_items e join questions q on q.investigation_id = e.investigation_id
                                    where e.id = new.evidence_item_id and q.id = new.question_id)`;

const up = [
  // links
  `alter table evidence_question_links add column same_investigation boolean not null default false`,
  `update evidence_question_links l set same_investigation = true from evidence_items e, questions q
     where e.id = l.evidence_item_id and q.id = l.question_id and q.investigation_id = e.investigation_id`,
  `create function links_decide_counted() returns trigger language plpgsql as $$
   begin
     new.same_investigation := ${SAME_INVESTIGATION};
     return new;
   end $$`,
  `create trigger links_decide_counted before insert or update on evidence_question_links
     for each row execute function links_decide_counted()`,
  // a moved evidence item or question: its links decide again (the update fires the trigger above, then the
  // count); a moved evidence item's attachments follow it too (0004's fill trigger, then its count)
  `create function follow_moved_evidence() returns trigger language plpgsql as $$
   begin
     update evidence_question_links set evidence_item_id = evidence_item_id where evidence_item_id = new.id;
     update attachments set evidence_item_id = evidence_item_id where evidence_item_id = new.id;
     return null;
   end $$`,
  `create function follow_moved_question() returns trigger language plpgsql as $$
   begin
     update evidence_question_links set question_id = question_id where question_id = new.id;
     return null;
   end $$`,
  `create trigger evidence_items_follow_move after update of investigation_id on evidence_items
     for each row when (old.investigation_id is distinct from new.investigation_id) execute function follow_moved_evidence()`,
  `create trigger questions_follow_move after update of investigation_id on questions
     for each row when (old.investigation_id is distinct from new.investigation_id) execute function follow_moved_question()`,
  `alter table questions add column linked_evidence_count int not null default 0`,
  `update questions q set linked_evidence_count =
     (select count(*) from evidence_question_links l where l.question_id = q.id and l.same_investigation)`,
  // the investigations' rows are locked first, in id order, as 0004's evidence count locks them: writers of one
  // investigation queue on its row, instead of locking its questions in opposite orders (a deadlock)
  `create function count_question_links() returns trigger language plpgsql as $$
   declare changes text := changed_rows(tg_op, 'question_id, same_investigation');
   begin
     execute format('select 1 from investigations where id in (select q.investigation_id from questions q
         where q.id in (select question_id from (%s) c where same_investigation)) order by id for no key update', changes);
     execute format('update questions q set linked_evidence_count = q.linked_evidence_count + d.n
       from (select question_id, sum(sign)::int as n from (%s) changes where same_investigation group by question_id) d
       where q.id = d.question_id and d.n <> 0', changes);
     return null;
   end $$`,

  // background documents
  `alter table investigations
     add column background_document_count int not null default 0,
     add column background_included_count int not null default 0`,
  `update investigations i set
     background_document_count = (select count(*) from background_documents b where b.investigation_id = i.id),
     background_included_count = (select count(*) from background_documents b where b.investigation_id = i.id and b.included_for_ai)`,
  `create function count_background_documents() returns trigger language plpgsql as $$
   begin
     execute format('update investigations i set
         background_document_count = i.background_document_count + d.documents,
         background_included_count = i.background_included_count + d.included
       from (select investigation_id, sum(sign)::int as documents, sum(case when included_for_ai then sign else 0 end)::int as included
             from (%s) changes group by investigation_id) d
       where i.id = d.investigation_id and (d.documents <> 0 or d.included <> 0)', changed_rows(tg_op, 'investigation_id, included_for_ai'));
     return null;
   end $$`,
];

// Transition tables are declared per event, so each event has its own trigger (as in 0004).
const eventTriggers = (table: string, fn: string) => [
  `create trigger ${table}_count_insert after insert on ${table} referencing new table as new_rows
     for each statement execute function ${fn}()`,
  `create trigger ${table}_count_delete after delete on ${table} referencing old table as old_rows
     for each statement execute function ${fn}()`,
  `create trigger ${table}_count_update after update on ${table} referencing old table as old_rows new table as new_rows
     for each statement execute function ${fn}()`,
];

const TRIGGERED = ['evidence_question_links', 'background_documents'];

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      ...up,
      ...eventTriggers('evidence_question_links', 'count_question_links'),
      ...eventTriggers('background_documents', 'count_background_documents'),
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      ...TRIGGERED.flatMap((table) =>
        ['insert', 'delete', 'update'].map((op) => `drop trigger if exists ${table}_count_${op} on ${table}`),
      ),
      'drop trigger if exists links_decide_counted on evidence_question_links',
      'drop trigger if exists evidence_items_follow_move on evidence_items',
      'drop trigger if exists questions_follow_move on questions',
      'drop function if exists count_question_links()',
      'drop function if exists count_background_documents()',
      'drop function if exists follow_moved_evidence()',
      'drop function if exists follow_moved_question()',
      'drop function if exists links_decide_counted()',
      'alter table investigations drop column background_document_count, drop column background_included_count',
      'alter table questions drop column linked_evidence_count',
      'alter table evidence_question_links drop column same_investigation',
    ])
      await sql.raw(statement).execute(db);
  },
};
