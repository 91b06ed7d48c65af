/**
 * Per-organization cap on concurrent AI work: an organization with GENERATION_CAP analyses already
 * queued, generating or being quality-checked gets a 429 (Retry-After) for the next generation,
 * regeneration or manual quality check, so one organization cannot fill the queues and the AI quota
 * every organization shares (its share of the quota itself is ai/quota.ts's).
 *
 * Called inside the transaction that inserts the `queued` row, the cap is exact: the check takes a
 * per-organization transaction lock first, so concurrent creates of one organization queue behind it.
 * Called outside a transaction it is a soft cap (simultaneous requests may each pass once).
 */
import { sql, type Kysely } from 'kysely';
import { config, ENV } from '#core/config';
import type { Database } from '#core/db/schema';
import { lockForTransaction } from '#core/db/transaction-state';
import { organizationAnalyses } from '#core/repositories/analyses';
import { tooManyRequests } from './limits';
export const DEFAULT_GENERATION_CAP = 10;
/** a generation takes 2–3 minutes; half a minute later one has usually finished */
export const GENERATION_CAP_RETRY_AFTER_SECONDS = 30;

export const generationCap = (): number => config()[ENV.generationCap] ?? DEFAULT_GENERATION_CAP;

/**
 * Analyses of the organization that are queued, or generating or checking under a live lease (or none
 * yet: a manual check not picked up): a crashed worker's analysis stops counting once its lease runs out
 * (analysis/lease.ts), not when the watchdog ends it.
 */
export const generationsInFlight = async (db: Kysely<Database>, organizationId: string): Promise<number> => {
  const row = await organizationAnalyses(db, organizationId)
    .where((eb) =>
      eb.or([
        eb('a.generation_status', '=', 'queued'),
        eb.and([
          eb('a.generation_status', 'in', ['generating', 'checking']),
          eb.or([eb('a.claimed_until', 'is', null), eb('a.claimed_until', '>', sql<Date>`now()`)]),
        ]),
      ]),
    )
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
};

/** Throws 429 with Retry-After when the organization is at its cap of concurrent AI work. */
export const assertGenerationCapacity = async (db: Kysely<Database>, organizationId: string, cap = generationCap()): Promise<void> => {
  if (db.isTransaction) await lockForTransaction(db, sql`hashtextextended(${`generation-cap:${organizationId}`}, 0)`);
  const inFlight = await generationsInFlight(db, organizationId);
  if (inFlight >= cap) {
    throw tooManyRequests(
      `Your organization already has ${inFlight} analyses being generated or checked (the limit is ${cap}); try again when one has finished.`,
      GENERATION_CAP_RETRY_AFTER_SECONDS,
    );
  }
};
