/**
 * Feedback as issue 5 records it: a retried request is recognised per investigator (a request id is
 * the client's, so it is unique per user, not across users), and a feedback row points at what it
 * produced (the new analysis of a regeneration, the revision of an edit), so a replay can answer
 * with exactly what the first request did.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      `alter table feedback drop constraint feedback_request_id_key`,
      `alter table feedback add constraint feedback_user_request_key unique (user_id, request_id)`,
      `alter table feedback
         add column regenerated_analysis_id uuid references analyses(id) on delete set null,
         add column revision_id uuid references analysis_revisions(id) on delete set null`,
      `create index analyses_regenerated_from_idx on analyses (regenerated_from) where regenerated_from is not null`,
    ])
      await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      `drop index if exists analyses_regenerated_from_idx`,
      `alter table feedback drop column regenerated_analysis_id, drop column revision_id`,
      `alter table feedback drop constraint feedback_user_request_key`,
      `alter table feedback add constraint feedback_request_id_key unique (request_id)`,
    ])
      await sql.raw(statement).execute(db);
  },
};
