/**
 * Leases on in-flight analyses (issue 14, "leases, not guesses"). A worker claims a row by moving it into
 * its in-flight status with `claimed_until = now + leaseMs()`, renews the lease while it works, and clears
 * it when it is done. A message delivered again may take over a row whose lease has run out (its worker
 * crashed or was killed); a row whose lease is live belongs to a worker that is still working, and the
 * message comes back once that lease could have run out (LeaseHeldError), instead of being dropped
 * (redelivery as a whole: domain/generation-status.ts).
 *
 * Why 60 s: long enough that a renewal every 20 s survives a slow database round trip or two, short
 * enough that a crashed worker's analysis is taken over within about a minute of its message returning
 * (the worker keeps its message invisible for one lease at a time: worker.ts).
 */
import { sql, type Kysely } from 'kysely';
import { config, ENV } from '#core/config';
import type { Database, GenerationStatus } from '#core/db/schema';
import { guardedMove, type Move } from '#core/domain/generation-status';
import { logger } from '#core/logger';

export const DEFAULT_LEASE_MS = 60_000;

/** The lease: ANALYSIS_LEASE_SECONDS (the stage's context analysisLeaseSeconds), or 60 s. Renewed every third of it. */
export const leaseMs = (): number => (config()[ENV.analysisLeaseSeconds] ?? DEFAULT_LEASE_MS / 1000) * 1000;

/** SQS's ceiling for one visibility change is 12 hours; a failed attempt's delay stays far below. */
export const MAX_RETRY_DELAY_SECONDS = 300;

/**
 * Pure: when a failed attempt's message comes back, by its receive count: 10 s, 20 s, 40 s … (capped), so
 * the maxReceiveCount attempts of a transient fault are spent within about a minute, not hours. The
 * worker applies it (worker.ts); the watchdog's limits are derived from it (watchdog.ts).
 */
export const failedAttemptDelaySeconds = (receiveCount: number): number =>
  Math.min(MAX_RETRY_DELAY_SECONDS, 10 * 2 ** Math.max(0, receiveCount - 1));

/** The row is claimed by a live worker: try again once its lease could have run out. */
export class LeaseHeldError extends Error {
  override readonly name = 'LeaseHeldError';
  constructor(
    readonly analysisId: string,
    readonly retryAfterMs: number,
  ) {
    super(`analysis ${analysisId} is being worked on by another worker (lease for ${Math.ceil(retryAfterMs / 1000)} s more)`);
  }
}

/** Pure: whether a row in flight may be claimed at `now` (no lease, or one that has run out). */
export const leaseFree = (claimedUntil: Date | null, now: Date): boolean =>
  claimedUntil === null || new Date(claimedUntil).getTime() <= now.getTime();

/**
 * Claims the row: `move` (from one of its sources into its target), or the machine's take_over of a row
 * already in the target whose lease is free. Returns the claimed columns, or undefined when the row is
 * elsewhere; throws LeaseHeldError when a live worker holds it.
 */
export const claimLease = async <C extends keyof Database['analyses'] & string>(
  db: Kysely<Database>,
  analysisId: string,
  move: Move,
  columns: readonly C[],
  now = new Date(),
) => {
  const takeover = guardedMove('take_over', [move.to]);
  const until = new Date(now.getTime() + leaseMs());
  // a claimed row no longer waits for AI capacity (ai_wait_until is set again if it has to)
  const claimed = await db
    .updateTable('analyses')
    .set({ generation_status: move.to, claimed_until: until, ai_wait_until: null, updated_at: now })
    .where('id', '=', analysisId)
    .where((eb) =>
      eb.or([
        eb('generation_status', 'in', move.from),
        eb.and([eb('generation_status', 'in', takeover.from), eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)])]),
      ]),
    )
    .returning([...columns])
    .executeTakeFirst();
  if (claimed) return claimed;
  const row = await db
    .selectFrom('analyses')
    .select(['generation_status', 'claimed_until'])
    .where('id', '=', analysisId)
    .executeTakeFirst();
  if (row?.generation_status === move.to && row.claimed_until && !leaseFree(row.claimed_until, now)) {
    throw new LeaseHeldError(analysisId, new Date(row.claimed_until).getTime() - now.getTime());
  }
  return undefined;
};

/**
 * Renews the lease every third of it while the work runs (and calls `alsoEvery`, e.g. to keep the
 * message invisible as long); returns the function that stops renewing. A failed renewal is logged: the
 * next one may succeed, and if none does the lease runs out and the message's return takes over.
 */
export const holdLease = (
  db: Kysely<Database>,
  analysisId: string,
  status: GenerationStatus,
  alsoEvery?: () => Promise<void>,
): (() => void) => {
  const lease = leaseMs();
  const timer = setInterval(() => {
    void db
      .updateTable('analyses')
      .set({ claimed_until: sql<Date>`now() + ${`${lease} milliseconds`}::interval` })
      .where('id', '=', analysisId)
      .where('generation_status', '=', status)
      .execute()
      .then(() => alsoEvery?.())
      .catch((error: unknown) => logger.warn('lease renewal failed', { analysisId, error: error as Error }));
  }, lease / 3);
  timer.unref();
  return () => clearInterval(timer);
};
