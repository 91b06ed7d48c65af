/**
 * Transaction-scoped settings and advisory locks behind two functions (./transaction-state.ts), so that no
 * statement the service sends is one RDS Proxy pins a session for. AWS lists, for PostgreSQL, `SET` commands,
 * `set_config` and the advisory-lock functions among the conditions that pin a client's session to one database
 * connection for the rest of it; it also says a call to a stored function is not inspected for session state.
 * What these change ends with the transaction (set_config's is_local, pg_advisory_xact_lock), so no state
 * outlives it for a later transaction on the same database connection to meet.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      create function set_transaction_settings(names text[], settings text[]) returns void language plpgsql as $$
      begin
        for i in 1 .. coalesce(array_length(names, 1), 0) loop
          perform set_config(names[i], settings[i], true);
        end loop;
      end $$`.execute(db);
    await sql`
      create function transaction_advisory_lock(key bigint) returns void language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(key);
      end $$`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop function transaction_advisory_lock(bigint)`.execute(db);
    await sql`drop function set_transaction_settings(text[], text[])`.execute(db);
  },
};
