/**
 * The model request quota: at most QUOTA_LIMIT requests per region in any QUOTA_WINDOW_MS sliding
 * window, across every Lambda instance (the reservations live in the database). A request over quota
 * waits or goes to the other region; it is never sent just to be throttled.
 *
 * Why it is exact: a region's reservations are made one at a time (transaction-scoped advisory lock),
 * and each is stamped no earlier than the region's latest, so stamps only grow. A grant at t is made
 * only while (t − window, t] holds fewer than the limit, and with no later stamps that is every
 * window [s, s + window) containing t — so no window ever holds more than the limit.
 *
 * Time is always passed in (`now`, `Clock`, `Sleep`), never read from the database or Date, so tests
 * simulate minutes of traffic.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock, Sleep } from './clock';

export const QUOTA_LIMIT = 50;
export const QUOTA_WINDOW_MS = 60_000;

export type Reservation = { granted: true } | { granted: false; retryAt: Date };
export type Decision = { granted: true; at: Date } | { granted: false; retryAt: Date };

// ---- Pure window math -------------------------------------------------------------------------

/**
 * The stamp of a new reservation: `now`, or the region's latest stamp if another instance already
 * stamped later (clock skew; parallel callers reaching the lock out of order). Keeps stamps monotonic.
 */
export const stampFor = (now: Date, latest: Date | undefined): Date => (latest && latest > now ? latest : now);

/** The stamps that count against a request at `at`: those in (at − windowMs, at]. */
export const inWindow = (sortedTimes: readonly Date[], at: Date, windowMs: number): Date[] =>
  sortedTimes.filter((t) => t.getTime() > at.getTime() - windowMs && t <= at);

/**
 * When a full window (ascending stamps, count ≥ limit) next has room: once its (count − limit + 1)-th
 * oldest stamp has slid out, i.e. that stamp + windowMs (the window's left edge is open).
 */
export const retryAtFor = (sortedTimes: readonly Date[], limit: number, windowMs: number): Date => {
  const leaving = sortedTimes[sortedTimes.length - limit];
  if (limit < 1 || !leaving) throw new RangeError(`a window of ${sortedTimes.length} is not full at limit ${limit}`);
  return new Date(leaving.getTime() + windowMs);
};

/** Grant (at which stamp) or refuse (until when), given the region's ascending stamps newer than now − windowMs. */
export const decide = (sortedTimes: readonly Date[], now: Date, limit: number, windowMs: number): Decision => {
  const at = stampFor(now, sortedTimes.at(-1));
  const window = inWindow(sortedTimes, at, windowMs);
  return window.length < limit ? { granted: true, at } : { granted: false, retryAt: retryAtFor(window, limit, windowMs) };
};

// ---- Database edge ----------------------------------------------------------------------------

export interface ReserveOptions {
  region: string;
  now: Date;
  limit?: number | undefined;
  windowMs?: number | undefined;
}

/** Takes one request slot in `region` at `now`, or says when the next one frees up. One transaction. */
export const reserve = (db: Kysely<Database>, { region, now, limit = QUOTA_LIMIT, windowMs = QUOTA_WINDOW_MS }: ReserveOptions): Promise<Reservation> =>
  db.transaction().execute(async (trx) => {
    // Serialises this region's reservations across every connection and instance; released at commit.
    await sql`select pg_advisory_xact_lock(hashtext('ai-quota:' || ${region}::text))`.execute(trx);
    const horizon = new Date(now.getTime() - windowMs);
    // Housekeeping: a stamp at or before the horizon can count against no later request (stamps only grow).
    await trx.deleteFrom('ai_quota_reservations').where('region', '=', region).where('reserved_at', '<=', horizon).execute();
    const rows = await trx.selectFrom('ai_quota_reservations').select('reserved_at')
      .where('region', '=', region).where('reserved_at', '>', horizon).orderBy('reserved_at').execute();
    const decision = decide(rows.map((r) => r.reserved_at), now, limit, windowMs);
    if (!decision.granted) return decision;
    await trx.insertInto('ai_quota_reservations').values({ region, reserved_at: decision.at }).execute();
    return { granted: true };
  });

/** Every region was full and the next free slot is later than the caller was willing to wait. */
export class QuotaExhaustedError extends Error {
  override name = 'QuotaExhaustedError';
  constructor(readonly regions: readonly string[], readonly retryAt: Date) {
    super(`model request quota exhausted in ${regions.join(', ')}; next slot at ${retryAt.toISOString()}`);
  }
}

export interface AcquireOptions {
  /** in order of preference: [primary, fallback] */
  regions: readonly string[];
  now: Clock;
  /** must let `now` advance by the time slept (the real pair, or a simulated one in tests) */
  sleep: Sleep;
  maxWaitMs: number;
  limit?: number | undefined;
  windowMs?: number | undefined;
}

/**
 * A slot in the first region that has one, waiting (up to maxWaitMs) for the earliest slot when all
 * are full. Returns the region granted; the caller sends its request there.
 */
export const acquire = async (db: Kysely<Database>, { regions, now, sleep, maxWaitMs, limit, windowMs }: AcquireOptions): Promise<string> => {
  if (regions.length === 0) throw new RangeError('acquire needs at least one region');
  const deadline = now().getTime() + maxWaitMs;
  for (;;) {
    let earliest: Date | undefined;
    for (const region of regions) {
      const reservation = await reserve(db, { region, now: now(), limit, windowMs });
      if (reservation.granted) return region;
      if (!earliest || reservation.retryAt < earliest) earliest = reservation.retryAt;
    }
    // Give up now rather than sleep past the deadline for a slot we could not take anyway.
    if (earliest!.getTime() > deadline) throw new QuotaExhaustedError(regions, earliest!);
    await sleep(Math.max(0, earliest!.getTime() - now().getTime()));
  }
};
