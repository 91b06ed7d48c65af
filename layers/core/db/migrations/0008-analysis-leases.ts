/**
 * Leases, not guesses (issue 14): a worker that claims an analysis (generating, checking) holds it until
 * `claimed_until`, renewed while it works. A redelivered message may take over a row whose lease has run
 * out (its worker crashed); one whose lease is live is someone's work in progress. Null: no worker holds
 * the row (not in flight, or a manual quality check not picked up yet).
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table analyses add column claimed_until timestamptz`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`alter table analyses drop column claimed_until`.execute(db);
  },
};
