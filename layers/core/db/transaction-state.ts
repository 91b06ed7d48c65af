/**
 * State that lasts one transaction — planner settings, an advisory lock — set through migration 0022's functions
 * rather than `set local` or a lock function in the statement itself, which RDS Proxy would pin the client's
 * session for (docs/operations.md, "RDS Proxy pinning"; the twin's proxy counts what would pin).
 */
import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';

/** Settings (name → value) in force until the transaction ends, in one round trip. */
export const setForTransaction = async (trx: QueryExecutorProvider, settings: Readonly<Record<string, string>>): Promise<void> => {
  await sql`select set_transaction_settings(${Object.keys(settings)}::text[], ${Object.values(settings)}::text[])`.execute(trx);
};

/** Waits for, then holds until the transaction ends, the advisory lock of `key` (a bigint expression). */
export const lockForTransaction = async (trx: QueryExecutorProvider, key: RawBuilder<unknown>): Promise<void> => {
  await sql`select transaction_advisory_lock(${key})`.execute(trx);
};
