/**
 * Leases on in-flight analyses, on the database: a claim from the waiting status, a live lease that
 * sends a second claimer back with the time it has left (its message returns then, instead of running the
 * work twice or being dropped), a takeover once the lease has run out (the worker crashed), the manual
 * quality start's unleased checking row; and the worker's pure rules: when a failed message comes back,
 * and a queue's URL from its ARN. The generation cap stops counting a crashed worker's analysis once its
 * lease has run out.
 */
import { claimLease, DEFAULT_LEASE_MS, LeaseHeldError, leaseFree } from '#core/analysis/lease';
import { queueUrlOf, retryDelaySeconds } from '#core/analysis/worker';
import type { GenerationStatus } from '#core/db/schema';
import { generationsInFlight } from '#core/ratelimit/generation-cap';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();
let organizationId = '';
let investigationId = '';

beforeAll(async () => {
  organizationId = (await db.insertInto('organizations').values({ name: 'Lease Org' }).returning('id').executeTakeFirstOrThrow()).id;
  investigationId = (
    await db
      .insertInto('investigations')
      .values({ organization_id: organizationId, title: 'Leases' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

const analysis = async (status: GenerationStatus, claimedUntil: Date | null = null) =>
  (
    await db
      .insertInto('analyses')
      .values({ investigation_id: investigationId, analysis_type: 'summary', generation_status: status, claimed_until: claimedUntil })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
const leaseOf = async (id: string) =>
  db.selectFrom('analyses').select(['generation_status', 'claimed_until']).where('id', '=', id).executeTakeFirstOrThrow();

const GENERATE = { from: ['queued'] as GenerationStatus[], to: 'generating' as const };

test('a claim moves the row and holds it for one lease; a second claimer is sent back with the time left', async () => {
  const id = await analysis('queued');
  const now = new Date();
  expect(await claimLease(db, id, GENERATE, ['id'], now)).toEqual({ id });
  const held = await leaseOf(id);
  expect(held.generation_status).toBe('generating');
  expect(new Date(held.claimed_until!).getTime()).toBe(now.getTime() + DEFAULT_LEASE_MS);

  const later = new Date(now.getTime() + 15_000);
  const second = claimLease(db, id, GENERATE, ['id'], later);
  await expect(second).rejects.toBeInstanceOf(LeaseHeldError);
  await expect(second).rejects.toMatchObject({ retryAfterMs: DEFAULT_LEASE_MS - 15_000 });
});

test('once the lease has run out (the worker crashed), a returning message takes the row over', async () => {
  const id = await analysis('generating', new Date(Date.now() - 1000));
  const now = new Date();
  expect(await claimLease(db, id, GENERATE, ['id'], now)).toEqual({ id });
  expect(new Date((await leaseOf(id)).claimed_until!).getTime()).toBe(now.getTime() + DEFAULT_LEASE_MS);
});

test("a row elsewhere is not claimed (a duplicate of finished work); a manual start's unleased checking row is", async () => {
  const done = await analysis('complete');
  expect(await claimLease(db, done, GENERATE, ['id'])).toBeUndefined();
  expect((await leaseOf(done)).generation_status).toBe('complete');

  const manual = await analysis('checking');
  expect(await claimLease(db, manual, { from: ['complete'], to: 'checking' }, ['id'])).toEqual({ id: manual });
});

test("the generation cap counts queued rows and live leases, not a crashed worker's analysis", async () => {
  const { id: org } = await db.insertInto('organizations').values({ name: 'Cap Lease Org' }).returning('id').executeTakeFirstOrThrow();
  const { id: inv } = await db
    .insertInto('investigations')
    .values({ organization_id: org, title: 'Cap' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const add = (status: GenerationStatus, claimedUntil: Date | null) =>
    db
      .insertInto('analyses')
      .values({ investigation_id: inv, analysis_type: 'summary', generation_status: status, claimed_until: claimedUntil })
      .execute();
  await add('queued', null);
  await add('generating', new Date(Date.now() + DEFAULT_LEASE_MS));
  await add('generating', new Date(Date.now() - 1000)); // its worker crashed
  await add('complete', null);
  expect(await generationsInFlight(db, org)).toBe(2);
});

test('leaseFree, retryDelaySeconds and queueUrlOf', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  expect(leaseFree(null, now)).toBe(true);
  expect(leaseFree(new Date('2026-11-23T11:59:59Z'), now)).toBe(true);
  expect(leaseFree(new Date('2026-11-23T12:00:01Z'), now)).toBe(false);

  // 10 s, 20 s, 40 s …: the three attempts of a transient fault within about a minute; capped at 5 minutes
  expect([1, 2, 3, 4, 10].map((n) => retryDelaySeconds(n, new Error('blip')))).toEqual([10, 20, 40, 80, 300]);
  // a live lease: just after it could have run out
  expect(retryDelaySeconds(1, new LeaseHeldError('a', 42_300))).toBe(44);

  expect(queueUrlOf('arn:aws:sqs:eu-west-1:123456789012:ias-prod-generation')).toBe(
    'https://sqs.eu-west-1.amazonaws.com/123456789012/ias-prod-generation',
  );
});
