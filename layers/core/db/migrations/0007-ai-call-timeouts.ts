/**
 * The AI call ledger records an attempt aborted at its attempt timeout as its own outcome, 'timed_out'
 * (issue 14: a region answering after 90 s held an analysis for 362 s). The throttle shedder counts these
 * rows with the throttles (layers/core/ai/shedder.ts); ai_calls_outcome_idx serves both.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      `alter table ai_calls drop constraint ai_calls_outcome_check`,
      `alter table ai_calls add constraint ai_calls_outcome_check check (outcome in ('ok', 'throttled', 'error', 'shed', 'timed_out'))`,
    ])
      await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      // the earlier check has no place for them: a timed-out attempt becomes the error it was before 0007
      `update ai_calls set outcome = 'error' where outcome = 'timed_out'`,
      `alter table ai_calls drop constraint ai_calls_outcome_check`,
      `alter table ai_calls add constraint ai_calls_outcome_check check (outcome in ('ok', 'throttled', 'error', 'shed'))`,
    ])
      await sql.raw(statement).execute(db);
  },
};
