/**
 * The model request quota: at most QUOTA_LIMIT requests per region in any QUOTA_WINDOW_MS sliding
 * window, across every Lambda instance (the reservations live in the database). A request over quota
 * waits or goes to the other region; it is never sent just to be throttled.
 *
 * Fair shares (issue 14): the window is shared by organizations (tenants), work-conserving. A tenant
 * below its share (the limit divided by the tenants active in the window) is granted whenever the window
 * has room; one at or above it only while the slots the other active tenants are still owed stay free.
 * So an organization alone may use the whole quota, and one that floods it cannot starve another: a
 * refused tenant below its share leaves a waiting mark (a row that is not a grant), which makes it
 * active at once, so the flooding tenant's next requests leave the freed slots to it.
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
import type { Database } from '#core/db/schema';
import { lockForTransaction } from '#core/db/transaction-state';
import { DomainError } from '#core/errors';
import { QUOTA_LIMIT, QUOTA_WINDOW_MS } from '#manifest/ai-capacity';

// the spec's figures live with the workers' sizing they determine (manifest/ai-capacity.ts)
export { QUOTA_LIMIT, QUOTA_WINDOW_MS };

/**
 * Work that can wait — the embedding sweep: no organization, nobody waiting on it — takes at most this many of
 * the primary region's QUOTA_LIMIT slots in any window (the gateway's `background` calls), so the 15 left are
 * there for an investigator's analysis (4 requests: the query embedding, the analysis, two quality checks)
 * arriving just after a burst of it — the twin's start-up sweep of the demo, an hourly sweep after a large
 * import — which the primary region then still serves. The fallback region's slots it may fill: they are idle
 * capacity until the primary fails. (The sweep waits for a slot rather than failing: embeddings/sweeper.ts.)
 */
export const BACKGROUND_PRIMARY_LIMIT = 35;

/** Time as a dependency (see above): what the caller reads the time and waits with. */
type Clock = () => Date;
export type Sleep = (ms: number) => Promise<void>;

/** overShare: refused because the organization is over its fair share while others are owed theirs (not a full window) */
export type Reservation = { granted: true } | { granted: false; retryAt: Date; overShare?: true };
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

/** One row of a region's window: a grant, or a tenant's waiting mark (counts for activity, not against the limit). */
export interface WindowRow {
  at: Date;
  tenant: string;
  granted: boolean;
}

/** The tenant of work done for no organization (the embedding sweeper, the evaluation CLI's judge). */
export const NO_TENANT = '';

export type FairDecision =
  | Decision
  | { granted: false; retryAt: Date; markWaiting: true }
  | { granted: false; retryAt: Date; overShare: true };

/**
 * Grant or refuse `tenant` a slot, given the region's rows newer than now − windowMs (ascending).
 * Refusing a tenant below its share asks for a waiting mark (`markWaiting`) when it has no row in the
 * window yet, so the others see it as active from now on.
 */
export const decideFair = (rows: readonly WindowRow[], now: Date, tenant: string, limit: number, windowMs: number): FairDecision => {
  const grants = rows.filter((r) => r.granted);
  const total = decide(
    grants.map((r) => r.at),
    now,
    limit,
    windowMs,
  );
  const at = total.granted ? total.at : stampFor(now, grants.at(-1)?.at);
  const window = rows.filter((r) => r.at.getTime() > at.getTime() - windowMs && r.at <= at);
  const used = new Map<string, number>([[tenant, 0]]);
  let granted = 0;
  for (const r of window) {
    used.set(r.tenant, (used.get(r.tenant) ?? 0) + (r.granted ? 1 : 0));
    if (r.granted) granted++;
  }
  const share = Math.max(1, Math.floor(limit / used.size));
  const mine = used.get(tenant)!;
  const belowShare = mine < share;
  if (!total.granted) {
    const marked = window.some((r) => r.tenant === tenant);
    return belowShare && !marked ? { ...total, markWaiting: true } : total;
  }
  if (belowShare) return total;
  const owed = [...used].reduce((sum, [t, n]) => sum + (t === tenant ? 0 : Math.max(0, share - n)), 0);
  if (granted + 1 + owed <= limit) return total;
  // over its share while others are owed slots: look again once enough of its own grants have left the
  // window to bring it below its share (sooner only if the others stop asking)
  const own = window.filter((r) => r.granted && r.tenant === tenant);
  return { granted: false, retryAt: new Date(own[mine - share]!.at.getTime() + windowMs), overShare: true };
};

// ---- Database edge ----------------------------------------------------------------------------

export interface ReserveOptions {
  region: string;
  now: Date;
  /** the organization the request is made for (its fair share); none: work of no organization */
  organizationId?: string | undefined;
  limit?: number | undefined;
  windowMs?: number | undefined;
}

/** Takes one request slot in `region` at `now`, or says when to look again. One transaction. */
export const reserve = (
  db: Kysely<Database>,
  { region, now, organizationId, limit = QUOTA_LIMIT, windowMs = QUOTA_WINDOW_MS }: ReserveOptions,
): Promise<Reservation> =>
  db.transaction().execute(async (trx) => {
    // Serialises this region's reservations across every connection and instance; released at commit.
    await lockForTransaction(trx, sql`hashtext('ai-quota:' || ${region}::text)`);
    const horizon = new Date(now.getTime() - windowMs);
    // Housekeeping: a stamp at or before the horizon can count against no later request (stamps only grow).
    await trx.deleteFrom('ai_quota_reservations').where('region', '=', region).where('reserved_at', '<=', horizon).execute();
    const rows = await trx
      .selectFrom('ai_quota_reservations')
      .select(['reserved_at', 'organization_id', 'granted'])
      .where('region', '=', region)
      .where('reserved_at', '>', horizon)
      .orderBy('reserved_at')
      .execute();
    const tenant = organizationId ?? NO_TENANT;
    const decision = decideFair(
      rows.map((r) => ({ at: r.reserved_at, tenant: r.organization_id ?? NO_TENANT, granted: r.granted })),
      now,
      tenant,
      limit,
      windowMs,
    );
    if (!decision.granted) {
      if ('markWaiting' in decision) {
        await trx
          .insertInto('ai_quota_reservations')
          .values({ region, reserved_at: now, organization_id: organizationId ?? null, granted: false })
          .execute();
      }
      return { granted: false, retryAt: decision.retryAt, ...('overShare' in decision && { overShare: true as const }) };
    }
    await trx
      .insertInto('ai_quota_reservations')
      .values({ region, reserved_at: decision.at, organization_id: organizationId ?? null, granted: true })
      .execute();
    return { granted: true };
  });

/** Every region was full and the next free slot is later than the caller was willing to wait. */
export class QuotaExhaustedError extends DomainError {
  override name = 'QuotaExhaustedError';
  constructor(
    readonly regions: readonly string[],
    readonly retryAt: Date,
  ) {
    super(
      'rate_limited',
      'ai_quota_exhausted',
      `model request quota exhausted in ${regions.join(', ')}; next slot at ${retryAt.toISOString()}`,
    );
  }
}

export interface AcquireOptions {
  /** in order of preference: [primary, fallback] */
  regions: readonly string[];
  /** whose share the slot comes from (reserve) */
  organizationId?: string | undefined;
  now: Clock;
  /** must let `now` advance by the time slept (the real pair, or a simulated one in tests) */
  sleep: Sleep;
  maxWaitMs: number;
  limit?: number | undefined;
  /** a lower limit in some regions, by region (background work: BACKGROUND_PRIMARY_LIMIT in the primary) */
  regionLimits?: Readonly<Record<string, number>> | undefined;
  windowMs?: number | undefined;
  /**
   * wait for a slot even while the organization is over its share everywhere (up to maxWaitMs): for work that has
   * already spent a model request, which giving back would spend again (the gateway's follow-up calls)
   */
  waitOverShare?: boolean | undefined;
}

/**
 * A slot in the first region that has one, waiting (up to maxWaitMs) for the earliest slot when all
 * are full. Returns the region granted; the caller sends its request there. An organization refused
 * everywhere for being over its share does not wait in process (it would hold a worker other
 * organizations' work needs): QuotaExhaustedError at once, and its work comes back at retryAt — unless the work
 * has already spent a request (waitOverShare), which giving it back would spend again.
 */
export const acquire = async (
  db: Kysely<Database>,
  { regions, organizationId, now, sleep, maxWaitMs, limit, regionLimits, windowMs, waitOverShare }: AcquireOptions,
): Promise<string> => {
  if (regions.length === 0) throw new RangeError('acquire needs at least one region');
  const deadline = now().getTime() + maxWaitMs;
  for (;;) {
    let earliest: Date | undefined;
    let overShareEverywhere = true;
    for (const region of regions) {
      const reservation = await reserve(db, { region, now: now(), organizationId, limit: regionLimits?.[region] ?? limit, windowMs });
      if (reservation.granted) return region;
      if (!earliest || reservation.retryAt < earliest) earliest = reservation.retryAt;
      overShareEverywhere &&= reservation.overShare === true;
    }
    // Give up now rather than sleep past the deadline for a slot we could not take anyway.
    if ((overShareEverywhere && !waitOverShare) || earliest!.getTime() > deadline) throw new QuotaExhaustedError(regions, earliest!);
    await sleep(Math.max(0, earliest!.getTime() - now().getTime()));
  }
};
