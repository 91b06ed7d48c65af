/**
 * The rate limiter against the database (PGlite, or real PostgreSQL with TEST_DATABASE_URL): one
 * atomic counter per key and window, concurrent requests counted exactly, old windows dropped, the
 * 429 with Retry-After and the [RATE_LIMIT] line, and failing open when the store is down.
 */
import type { Context } from 'aws-lambda';
import type { Kysely } from 'kysely';
import { functionById, type HttpTrigger } from '#manifest';
import { useDatabase } from '#core/db/connection';
import type { Database } from '#core/db/schema';
import * as z from 'zod';
import { defineRoute } from '#core/contract';
import { route as routeOf, type HttpEvent } from '#core/http/route';
import { logger } from '#core/logger';
import { countHit, enforceRateLimit, rateKeyOf } from '#core/ratelimit/limiter';
import { ENV } from '#manifest/runtime-names';
import { answerOf } from '../support/answer-of';
import { useTestDatabase } from '../support/db';
import { setEnv } from '../support/config-env';

const db = useTestDatabase();
const savedLimits = process.env[ENV.rateLimits];

beforeAll(() => useDatabase({ db, engine: 'pglite', close: async () => undefined }));
afterAll(() => useDatabase(undefined));
afterEach(() => {
  setEnv({ [ENV.rateLimits]: savedLimits });
  jest.restoreAllMocks();
});

const event = (routeKey: string, { sub, ip = '203.0.113.7' }: { sub?: string; ip?: string } = {}): HttpEvent =>
  ({
    version: '2.0',
    routeKey,
    rawPath: '/',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: {
      http: { method: routeKey.split(' ')[0], sourceIp: ip },
      ...(sub && { authorizer: { jwt: { claims: { sub, organization_id: '8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9c01' }, scopes: [] } } }),
    },
  }) as unknown as HttpEvent;

const route = (id: string) => {
  const fn = functionById(id);
  return { ...(fn.triggers.find((t) => t.kind === 'http') as HttpTrigger), fn };
};

const rows = (key: string) => db.selectFrom('rate_limit_counters').selectAll().where('key', '=', key).execute();

test('one counter row per key and window; concurrent hits are each counted once', async () => {
  const before = Date.now();
  const hits = await Promise.all(Array.from({ length: 25 }, () => countHit(db, 'test:concurrent', 3600)));
  const after = Date.now();
  expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  const stored = await rows('test:concurrent');
  expect(stored).toHaveLength(1);
  expect(stored[0]!.count).toBe(25);
  // the window is aligned on the hour, so it ends at the next full hour: seconds to it as the hits were counted
  // (between before and after, which a loaded machine can set seconds apart)
  const [soonest, latest] = [after, before].map((t) => 3600 - (Math.floor(t / 1000) % 3600)) as [number, number];
  for (const h of hits) {
    expect(h.retryAfterSeconds).toBeGreaterThanOrEqual(Math.min(soonest, latest) - 1);
    expect(h.retryAfterSeconds).toBeLessThanOrEqual(Math.max(soonest, latest) + 1);
  }
});

test("a new window starts at 1 and drops the key's earlier windows", async () => {
  await db
    .insertInto('rate_limit_counters')
    .values([
      { key: 'test:old', window_start: new Date(Date.now() - 7200_000), count: 99 },
      { key: 'test:other', window_start: new Date(Date.now() - 7200_000), count: 5 },
    ])
    .execute();
  expect((await countHit(db, 'test:old', 60)).count).toBe(1);
  const stored = await rows('test:old');
  expect(stored.map((r) => r.count)).toEqual([1]);
  expect(await rows('test:other')).toHaveLength(1); // other keys are not touched
});

test('keys: the verified subject, else the source address', () => {
  expect(rateKeyOf(event('GET /api/investigations', { sub: 'user-1' }))).toBe('user:user-1');
  expect(rateKeyOf(event('POST /api/auth/login', { ip: '198.51.100.9' }))).toBe('ip:198.51.100.9');
});

test('over the limit: 429 with Retry-After and a [RATE_LIMIT] line; per user, per class', async () => {
  setEnv({ [ENV.rateLimits]: 'investigator=3/3600' });
  const warn = jest.spyOn(logger, 'warn');
  const list = route('investigations-list');
  for (let i = 0; i < 3; i++) await enforceRateLimit(event('GET /api/investigations', { sub: 'alice' }), list);
  const refused = await enforceRateLimit(event('GET /api/investigations', { sub: 'alice' }), list).catch((e: unknown) => e);
  expect(answerOf(refused)).toMatchObject({ status: 429, code: 'rate_limited' });
  const retryAfter = Number(answerOf(refused).headers['retry-after']);
  expect(Math.abs(retryAfter - (3600 - (Math.floor(Date.now() / 1000) % 3600)))).toBeLessThanOrEqual(2);
  expect(warn).toHaveBeenCalledWith(
    '[RATE_LIMIT] request refused',
    expect.objectContaining({
      key: 'investigator:user:alice',
      route: 'GET /api/investigations',
      limit: 3,
      windowSeconds: 3600,
      count: 4,
    }),
  );
  // another user, and the same user on an admin-class route, have their own counters
  await expect(enforceRateLimit(event('GET /api/investigations', { sub: 'bob' }), list)).resolves.toBeUndefined();
  await expect(enforceRateLimit(event('GET /api/admin/users', { sub: 'alice' }), route('admin-users'))).resolves.toBeUndefined();
});

test('exempt routes and classes switched off are never counted', async () => {
  setEnv({ [ENV.rateLimits]: 'public=1/3600,cron=off' });
  const health = event('GET /api/health', { ip: '192.0.2.50' });
  for (let i = 0; i < 3; i++) await enforceRateLimit(health, route('health'));
  for (let i = 0; i < 3; i++)
    await enforceRateLimit(event('POST /api/admin/cron/retention', { ip: '192.0.2.50' }), route('retention-sweep'));
  expect(await db.selectFrom('rate_limit_counters').selectAll().where('key', 'like', '%192.0.2.50').execute()).toEqual([]);
});

test('through the route wrapper: the limiter runs before the access check, and a refused request never reaches the handler', async () => {
  setEnv({ [ENV.rateLimits]: 'auth=2/3600' });
  let ran = 0;
  const handler = routeOf(defineRoute({ route: 'POST /api/auth/login', response: z.unknown() }), async () => {
    ran += 1;
    return { body: { ok: true } };
  });
  const login = event('POST /api/auth/login', { ip: '192.0.2.77' });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await handler(login, {} as Context)).statusCode);
  expect(statuses).toEqual([200, 200, 429]);
  expect(ran).toBe(2);
  const refused = await handler(login, {} as Context);
  expect(refused.headers?.['retry-after']).toMatch(/^\d+$/);
  expect(JSON.parse(refused.body!).error.code).toBe('rate_limited');
});

test('a failing counter store lets the request through and says so', async () => {
  setEnv({ [ENV.rateLimits]: 'investigator=1/3600' });
  const broken = { handle: undefined } as unknown as Kysely<Database>;
  useDatabase({ db: broken, engine: 'pglite', close: async () => undefined });
  const error = jest.spyOn(logger, 'error');
  try {
    const list = route('investigations-list');
    for (let i = 0; i < 3; i++)
      await expect(enforceRateLimit(event('GET /api/investigations', { sub: 'carol' }), list)).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledWith(
      '[RATE_LIMIT] counter store unavailable; request allowed',
      expect.objectContaining({ key: 'investigator:user:carol' }),
    );
  } finally {
    useDatabase({ db, engine: 'pglite', close: async () => undefined });
  }
});

test('an invalid RATE_LIMITS is logged and the defaults apply', async () => {
  setEnv({ [ENV.rateLimits]: 'investigator=lots' });
  const error = jest.spyOn(logger, 'error');
  await enforceRateLimit(event('GET /api/investigations', { sub: 'dave' }), route('investigations-list'));
  expect(error).toHaveBeenCalledWith(
    '[RATE_LIMIT] invalid configuration; using the defaults',
    expect.objectContaining({ error: expect.stringContaining('investigator=lots') }),
  );
  expect((await rows('investigator:user:dave'))[0]!.count).toBe(1);
});
