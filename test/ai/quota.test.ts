import fc from 'fast-check';
import { sql } from 'kysely';
import {
  acquire,
  decide,
  decideFair,
  inWindow,
  NO_TENANT,
  QUOTA_LIMIT,
  QUOTA_WINDOW_MS,
  QuotaExhaustedError,
  reserve,
  retryAtFor,
  stampFor,
  type Sleep,
  type WindowRow,
} from '#core/ai/quota';
import { testEngine, useTestDatabase } from '../support/db';
import { SimulatedTime } from '../support/simulated-time';

const PRIMARY = 'us-east-1';
const FALLBACK = 'us-west-2';
const W = QUOTA_WINDOW_MS;
const T0 = Date.parse('2025-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);

/** The most stamps in any window [t, t + W): checking windows that start at a stamp covers them all. */
const maxInAnyWindow = (times: readonly number[]): number => {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + W) j++;
    max = Math.max(max, j - i);
  }
  return max;
};

/** A clock that only moves when slept on: simulated minutes pass in milliseconds. */
const simulatedClock = (startMs: number) => {
  let t = startMs;
  const slept: number[] = [];
  const sleep: Sleep = async (ms) => {
    slept.push(ms);
    t += ms;
    await new Promise((resolve) => setImmediate(resolve)); // let the other callers run meanwhile
  };
  return { now: () => new Date(t), sleep, slept };
};

describe('quota window math', () => {
  const times = (...ms: number[]) => ms.map(at);

  test('the window is (at − W, at]', () => {
    expect(inWindow(times(0, 1, W, W + 1), at(W), W)).toEqual(times(1, W));
  });

  test('retryAt: when the (count − limit + 1)-th oldest leaves the window', () => {
    expect(retryAtFor(times(0, 10, 20), 3, W)).toEqual(at(W));
    expect(retryAtFor(times(0, 10, 20, 30), 3, W)).toEqual(at(10 + W));
    expect(() => retryAtFor(times(0, 10), 3, W)).toThrow(RangeError);
  });

  test('stamps never go back in time', () => {
    expect(stampFor(at(5), undefined)).toEqual(at(5));
    expect(stampFor(at(5), at(3))).toEqual(at(5));
    expect(stampFor(at(5), at(9))).toEqual(at(9));
  });

  test('decide grants below the limit, refuses at it', () => {
    expect(decide(times(0, 10), at(20), 3, W)).toEqual({ granted: true, at: at(20) });
    expect(decide(times(0, 10, 20), at(30), 3, W)).toEqual({ granted: false, retryAt: at(W) });
    expect(decide(times(0, 10, 20), at(W), 3, W)).toEqual({ granted: true, at: at(W) });
    // a caller whose clock is behind the latest stamp is counted at that stamp
    expect(decide(times(0, 10, 20), at(15), 3, W)).toEqual({ granted: false, retryAt: at(W) });
    expect(decide(times(10, 20, W + 5), at(W), 3, W)).toEqual({ granted: false, retryAt: at(10 + W) });
  });
});

describe('fair shares of the window (pure)', () => {
  const grants = (tenant: string, ...ms: number[]): WindowRow[] => ms.map((t) => ({ at: at(t), tenant, granted: true }));
  const sorted = (...rows: WindowRow[][]) => rows.flat().sort((a, b) => a.at.getTime() - b.at.getTime());

  test('one tenant alone may use the whole limit (work-conserving)', () => {
    expect(decideFair(grants('a', 0, 1, 2, 3, 4, 5, 6, 7, 8), at(10), 'a', 10, W)).toEqual({ granted: true, at: at(10) });
    expect(decideFair(grants('a', 0, 1, 2, 3, 4, 5, 6, 7, 8, 9), at(10), 'a', 10, W)).toEqual({ granted: false, retryAt: at(W) });
  });

  test('a full window refuses a newcomer below its share, and asks for its waiting mark once', () => {
    const full = grants('a', 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    expect(decideFair(full, at(10), 'b', 10, W)).toEqual({ granted: false, retryAt: at(W), markWaiting: true });
    const marked = [...full, { at: at(10), tenant: 'b', granted: false }];
    expect(decideFair(marked, at(11), 'b', 10, W)).toEqual({ granted: false, retryAt: at(W) });
  });

  test('once another tenant is waiting, the flooding tenant leaves the freed slots to it', () => {
    // a has 10 grants; b marked itself waiting at 10 ms; the first of a's slots frees at W
    const rows = sorted(grants('a', 0, 1, 2, 3, 4, 5, 6, 7, 8, 9), [{ at: at(10), tenant: 'b', granted: false }]);
    const now = at(W); // a's stamp at 0 has left: 9 grants in the window
    // a (9 grants, share 5) may ask again once its 5th oldest has left: then it is below its share
    expect(decideFair(rows, now, 'a', 10, W)).toEqual({ granted: false, retryAt: at(5 + W), overShare: true });
    expect(decideFair(rows, now, 'b', 10, W)).toEqual({ granted: true, at: now });
  });

  test('two busy tenants: each below its share is granted; one above it only while the other is owed nothing', () => {
    const rows = sorted(grants('a', 0, 1, 2, 3, 4, 5), grants('b', 6, 7));
    // share 5 each; a has 6 (over), b is owed 3: 8 + 1 + 3 > 10 → a refused, b granted
    expect(decideFair(rows, at(20), 'a', 10, W)).toMatchObject({ granted: false });
    expect(decideFair(rows, at(20), 'b', 10, W)).toEqual({ granted: true, at: at(20) });
    // b at its share (5): a may take what is left
    const busy = sorted(grants('a', 0, 1, 2, 3), grants('b', 6, 7, 8, 9, 10));
    expect(decideFair(busy, at(20), 'a', 10, W)).toEqual({ granted: true, at: at(20) });
  });

  test('work of no organization is a tenant like any other', () => {
    const rows = grants(NO_TENANT, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    expect(decideFair(rows, at(10), 'org', 10, W)).toMatchObject({ granted: false, markWaiting: true });
  });

  test('property: whatever the arrivals and tenants, no window holds more grants than the limit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ t: fc.integer({ min: 0, max: 3 * W }), tenant: fc.constantFrom('a', 'b', 'c') }), { maxLength: 120 }),
        (arrivals) => {
          const rows: WindowRow[] = [];
          const limit = 6;
          for (const { t, tenant } of [...arrivals].sort((x, y) => x.t - y.t)) {
            const live = rows.filter((r) => r.at.getTime() > t - W);
            const d = decideFair(live, at(t), tenant, limit, W);
            if (d.granted) rows.push({ at: d.at, tenant, granted: true });
            else if ('markWaiting' in d) rows.push({ at: at(t), tenant, granted: false });
          }
          expect(maxInAnyWindow(rows.filter((r) => r.granted).map((r) => r.at.getTime() - T0))).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 200, seed: 14 },
    );
  });
});

describe(`quota on ${testEngine()}`, () => {
  const db = useTestDatabase();

  beforeAll(async () => {
    // Test-only history of every grant: housekeeping deletes old reservations, the windows check needs them all.
    await sql`create table quota_history (region text not null, reserved_at timestamptz not null)`.execute(db);
    await sql`create function quota_history_log() returns trigger language plpgsql as $$
      begin insert into quota_history values (new.region, new.reserved_at); return new; end $$`.execute(db);
    // grants only: a waiting mark takes no slot
    await sql`create trigger quota_history_log after insert on ai_quota_reservations
      for each row when (new.granted) execute function quota_history_log()`.execute(db);
  });

  beforeEach(async () => {
    await db.deleteFrom('ai_quota_reservations').execute();
    await sql`delete from quota_history`.execute(db);
  });

  const history = async (region: string): Promise<number[]> => {
    const { rows } = await sql<{
      reserved_at: Date;
    }>`select reserved_at from quota_history where region = ${region} order by reserved_at`.execute(db);
    return rows.map((r) => r.reserved_at.getTime() - T0);
  };

  test('sequential: 50 granted, the 51st refused until the oldest leaves the window, then one more', async () => {
    for (let i = 0; i < QUOTA_LIMIT; i++) {
      expect(await reserve(db, { region: PRIMARY, now: at(i * 100) })).toEqual({ granted: true });
    }
    expect(await reserve(db, { region: PRIMARY, now: at(10_000) })).toEqual({ granted: false, retryAt: at(W) });
    expect(await reserve(db, { region: PRIMARY, now: at(W - 1) })).toEqual({ granted: false, retryAt: at(W) });
    expect(await reserve(db, { region: PRIMARY, now: at(W) })).toEqual({ granted: true });
    expect(await reserve(db, { region: PRIMARY, now: at(W) })).toEqual({ granted: false, retryAt: at(100 + W) });
    expect(await reserve(db, { region: PRIMARY, now: at(100 + W) })).toEqual({ granted: true });
    // housekeeping: the two stamps that left the window are gone
    const left = await db
      .selectFrom('ai_quota_reservations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(QUOTA_LIMIT);
  });

  test('fair shares: organization A fills the window; B waits (marked), then takes the freed slots before A', async () => {
    const A = '00000000-0000-4000-8000-00000000000a';
    const B = '00000000-0000-4000-8000-00000000000b';
    for (let i = 0; i < QUOTA_LIMIT; i++)
      expect(await reserve(db, { region: PRIMARY, organizationId: A, now: at(i * 100) })).toEqual({ granted: true });
    expect(await reserve(db, { region: PRIMARY, organizationId: B, now: at(10_000) })).toEqual({ granted: false, retryAt: at(W) });
    // A's oldest stamps leave the window: the freed slots are B's (owed its share of 25), not A's
    const later = at(W + 250); // stamps at 0, 100, 200 have left
    expect(await reserve(db, { region: PRIMARY, organizationId: A, now: later })).toMatchObject({ granted: false, overShare: true });
    for (let i = 0; i < 3; i++) expect(await reserve(db, { region: PRIMARY, organizationId: B, now: later })).toEqual({ granted: true });
    const rows = await db
      .selectFrom('ai_quota_reservations')
      .select(['organization_id', 'granted'])
      .where('organization_id', '=', B)
      .execute();
    expect(rows.filter((r) => !r.granted)).toHaveLength(1);
    expect(rows.filter((r) => r.granted)).toHaveLength(3);
    expect(maxInAnyWindow(await history(PRIMARY))).toBeLessThanOrEqual(QUOTA_LIMIT);
  });

  const A = '00000000-0000-4000-8000-00000000000a';
  const B = '00000000-0000-4000-8000-00000000000b';
  /** A has 48 grants in each region (share 25), B one: one slot is free in each, and B is owed it */
  const aOverItsShare = async () => {
    for (const region of [PRIMARY, FALLBACK]) {
      for (let i = 0; i < QUOTA_LIMIT - 2; i++) await reserve(db, { region, organizationId: A, now: at(i * 100) });
      await reserve(db, { region, organizationId: B, now: at(5_000) });
    }
    return simulatedClock(T0 + 10_000);
  };

  test('acquire: an organization over its share everywhere does not wait in process; its work comes back at retryAt', async () => {
    const clock = await aOverItsShare();
    // one slot is free in each region, but B (1 of its 25) is owed it: A (48, share 25) is refused without
    // sleeping, until its 24th oldest grant has left the window
    const refused = acquire(db, { regions: [PRIMARY, FALLBACK], organizationId: A, now: clock.now, sleep: clock.sleep, maxWaitMs: 60_000 });
    await expect(refused).rejects.toMatchObject({ name: 'QuotaExhaustedError', retryAt: at(23 * 100 + W) });
    expect(clock.slept).toEqual([]);
    expect(await acquire(db, { regions: [PRIMARY, FALLBACK], organizationId: B, now: clock.now, sleep: clock.sleep, maxWaitMs: 0 })).toBe(
      PRIMARY,
    );
  });

  test('acquire waitOverShare (work that has spent a request): over its share, it waits in process until its share frees', async () => {
    const clock = await aOverItsShare();
    const options = { regions: [PRIMARY, FALLBACK], organizationId: A, now: clock.now, sleep: clock.sleep, waitOverShare: true };
    // not past its wait: refused at once, as without it
    await expect(acquire(db, { ...options, maxWaitMs: 1_000 })).rejects.toMatchObject({ name: 'QuotaExhaustedError' });
    expect(clock.slept).toEqual([]);
    expect(await acquire(db, { ...options, maxWaitMs: 60_000 })).toBe(PRIMARY);
    // slept until its 24th oldest grant left the window, when it is below its share again
    expect(clock.now().getTime()).toBe(at(23 * 100 + W).getTime());
  });

  test('regions are independent', async () => {
    for (let i = 0; i < QUOTA_LIMIT; i++) await reserve(db, { region: PRIMARY, now: at(i) });
    expect(await reserve(db, { region: PRIMARY, now: at(100) })).toMatchObject({ granted: false });
    expect(await reserve(db, { region: FALLBACK, now: at(100) })).toEqual({ granted: true });
  });

  test('concurrency: parallel bursts over 3 simulated minutes grant exactly what the limit allows, never more in any window', async () => {
    // Every 5 s, a burst of parallel callers per region (deterministic sizes); each burst settles before the clock moves.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const steps = Array.from({ length: 36 }, (_, i) => ({
      t: i * 5_000,
      demand: { [PRIMARY]: Math.floor(random() * 13), [FALLBACK]: Math.floor(random() * 9) } as Record<string, number>,
    }));

    // Reference: an exact sliding-window limiter, one request at a time.
    const expected: Record<string, number[]> = { [PRIMARY]: [], [FALLBACK]: [] };
    const modelled: Record<string, number[]> = { [PRIMARY]: [], [FALLBACK]: [] };
    for (const { t, demand } of steps) {
      for (const region of [PRIMARY, FALLBACK]) {
        const room = QUOTA_LIMIT - modelled[region]!.filter((s) => s > t - W && s <= t).length;
        const granted = Math.min(demand[region]!, room);
        modelled[region]!.push(...Array<number>(granted).fill(t));
        expected[region]!.push(granted);
      }
    }

    const actual: Record<string, number[]> = { [PRIMARY]: [], [FALLBACK]: [] };
    let callers = 0;
    for (const { t, demand } of steps) {
      const burst = [PRIMARY, FALLBACK].flatMap((region) => Array.from({ length: demand[region]! }, () => ({ region })));
      callers += burst.length;
      const results = await Promise.all(burst.map(({ region }) => reserve(db, { region, now: at(t) }).then((r) => ({ region, r }))));
      for (const region of [PRIMARY, FALLBACK]) actual[region]!.push(results.filter((x) => x.region === region && x.r.granted).length);
    }

    expect(callers).toBeGreaterThanOrEqual(200);
    expect(actual).toEqual(expected);
    for (const region of [PRIMARY, FALLBACK]) {
      const stamps = await history(region);
      expect(stamps.length).toBe(modelled[region]!.length);
      expect(maxInAnyWindow(stamps)).toBeLessThanOrEqual(QUOTA_LIMIT);
    }
    // the primary is oversubscribed: the limit is used to the full in its first minute
    expect(maxInAnyWindow(await history(PRIMARY))).toBe(QUOTA_LIMIT);
  });

  test('concurrency: out-of-order parallel callers (clocks disagree) never exceed the limit in any window', async () => {
    // 150 callers with request times over 90 s, started at once in a shuffled order, so the lock is
    // taken out of time order (on PGlite in this order; on PostgreSQL in whatever order the server picks).
    const times = Array.from({ length: 150 }, (_, i) => ((i * 37) % 150) * 600);
    const results = await Promise.all(times.map((t) => reserve(db, { region: PRIMARY, now: at(t) })));
    const stamps = await history(PRIMARY);
    expect(stamps.length).toBe(results.filter((r) => r.granted).length);
    expect(stamps.length).toBeGreaterThanOrEqual(QUOTA_LIMIT);
    expect(maxInAnyWindow(stamps)).toBeLessThanOrEqual(QUOTA_LIMIT);
  });

  test('concurrency: 200 parallel acquire callers in bursts on a shared simulated clock are all served at the full rate of both regions, waiting when both are full', async () => {
    // 50 callers at each of 0, 20, 40 and 50 s on one simulated clock; callers due at the same moment run in parallel.
    const arrivals = [0, 20_000, 40_000, 50_000].flatMap((t) => Array<number>(QUOTA_LIMIT).fill(t));
    const time = new SimulatedTime(T0);
    let waited = 0;
    const sleep: Sleep = (ms) => {
      waited++;
      return time.sleep(ms);
    };
    const calls = arrivals.map((arrival) =>
      time.spawn(arrival, () => acquire(db, { regions: [PRIMARY, FALLBACK], now: time.now, sleep, maxWaitMs: 60_000 })),
    );
    time.start();
    const served = await Promise.all(calls);

    const primary = await history(PRIMARY);
    const fallback = await history(FALLBACK);
    expect(served.filter((r) => r === PRIMARY).length).toBe(primary.length);
    expect(primary.length + fallback.length).toBe(arrivals.length);
    const histogram = (stamps: number[]) => Object.fromEntries([...new Set(stamps)].map((t) => [t, stamps.filter((s) => s === t).length]));
    // 0 s → primary; 20 s → fallback; 40 s and 50 s → both full: half take the primary when it frees at 60 s,
    // the rest the fallback at 80 s
    expect(histogram(primary)).toEqual({ 0: 50, 60000: 50 });
    expect(histogram(fallback)).toEqual({ 20000: 50, 80000: 50 });
    for (const stamps of [primary, fallback]) expect(maxInAnyWindow(stamps)).toBeLessThanOrEqual(QUOTA_LIMIT);
    expect(waited).toBe(150); // 100 callers wait for 60 s, and 50 of them again for 80 s
  });

  test('acquire: primary first, the fallback when the primary is full', async () => {
    const clock = simulatedClock(T0);
    expect(await acquire(db, { regions: [PRIMARY, FALLBACK], now: clock.now, sleep: clock.sleep, maxWaitMs: 0 })).toBe(PRIMARY);
    for (let i = 1; i < QUOTA_LIMIT; i++) await reserve(db, { region: PRIMARY, now: at(0) });
    expect(await acquire(db, { regions: [PRIMARY, FALLBACK], now: clock.now, sleep: clock.sleep, maxWaitMs: 0 })).toBe(FALLBACK);
    expect(clock.slept).toEqual([]);
  });

  test('acquire: both full → waits for the earliest free slot, then takes it', async () => {
    for (let i = 0; i < QUOTA_LIMIT; i++) {
      await reserve(db, { region: PRIMARY, now: at(20_000) });
      await reserve(db, { region: FALLBACK, now: at(10_000) });
    }
    const clock = simulatedClock(T0 + 30_000);
    expect(await acquire(db, { regions: [PRIMARY, FALLBACK], now: clock.now, sleep: clock.sleep, maxWaitMs: 60_000 })).toBe(FALLBACK);
    expect(clock.slept).toEqual([40_000]); // the fallback's oldest (10 s) leaves at 70 s
    expect(clock.now()).toEqual(at(70_000));
  });

  test('acquire: throws QuotaExhaustedError (with retryAt) when the wait would exceed maxWaitMs', async () => {
    for (let i = 0; i < QUOTA_LIMIT; i++) {
      await reserve(db, { region: PRIMARY, now: at(0) });
      await reserve(db, { region: FALLBACK, now: at(5_000) });
    }
    const clock = simulatedClock(T0 + 30_000);
    const attempt = acquire(db, { regions: [PRIMARY, FALLBACK], now: clock.now, sleep: clock.sleep, maxWaitMs: 29_999 });
    await expect(attempt).rejects.toBeInstanceOf(QuotaExhaustedError);
    await expect(attempt).rejects.toMatchObject({ name: 'QuotaExhaustedError', retryAt: at(W), regions: [PRIMARY, FALLBACK] });
    expect(clock.slept).toEqual([]);
    // exactly the wait allowed: served
    expect(await acquire(db, { regions: [PRIMARY, FALLBACK], now: clock.now, sleep: clock.sleep, maxWaitMs: 30_000 })).toBe(PRIMARY);
  });
});
