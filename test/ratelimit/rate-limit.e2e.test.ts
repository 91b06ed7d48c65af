/**
 * Rate limit acceptance, through the twin's HTTP API: the 429 arrives at the configured count, its
 * Retry-After is the time left in the window (and the request passes once it has gone by), the
 * [RATE_LIMIT] line is written; users are counted apart, anonymous callers by address, the health
 * check never. PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { DEMO_ORGANIZATION_IDS, demoUser } from '#core/seed/demo';
import { useTwin } from '../support/twin';

// the stage deployed with 5 an hour for investigators, 3 per 5 s on the sign-in routes (CDK context rateLimits)
const e2e = useTwin({ schedules: false, context: { rateLimits: 'investigator=5/3600,auth=3/5' } });
const { call } = e2e;

/** Resolves just after the next 5-second window of the sign-in limit (auth=3/5) begins. */
const nextWindow = () => new Promise((r) => setTimeout(r, 5000 - (Date.now() % 5000) + 20));

/**
 * `n` requests in a row from the start of the next window of the sign-in limit, and when the last went out. Sent again
 * (at most 3 times) when a loaded machine let them spill into the window after it, where the count starts over.
 */
const inOneWindow = async (send: () => Promise<{ status: number }>, n: number) => {
  for (let tries = 1; ; tries++) {
    await nextWindow();
    const since = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push((await send()).status);
    if (Math.floor(Date.now() / 5000) === Math.floor(since / 5000) || tries === 3) return { statuses, since };
  }
};

const secondsToNextHour = () => 3600 - (Math.floor(Date.now() / 1000) % 3600);

test('the 6th request of the hour is a 429 with the time left in the window, and a [RATE_LIMIT] line', async () => {
  const refusals = () => e2e.logged('investigations-list').filter((r) => r.message === '[RATE_LIMIT] request refused');
  const token = await e2e.token('investigator');
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await call('GET', '/api/investigations', token)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200]);
  expect(refusals()).toEqual([]);

  const refused = await call('GET', '/api/investigations', token);
  expect(refused.status).toBe(429);
  expect(refused.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/try again in \d+ seconds/) });
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(Math.abs(retryAfter - secondsToNextHour())).toBeLessThanOrEqual(2);
  expect(refused.body.error.details.retry_after_seconds).toBe(retryAfter);
  expect(refusals()).toEqual([
    expect.objectContaining({
      level: 'WARN',
      key: `investigator:user:${demoUser('investigator').idp_subject}`,
      route: 'GET /api/investigations',
      limit: 5,
      windowSeconds: 3600,
      count: 6,
    }),
  ]);

  // the count is per user: another investigator and an administrator (other subjects) are still let in (counted in the database too)
  expect((await call('GET', '/api/investigations', await e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor))).status).toBe(200);
  expect((await call('GET', '/api/admin/settings', await e2e.token('admin'))).status).toBe(200);
  // and the health check is never limited
  for (let i = 0; i < 8; i++) expect((await call('GET', '/api/health')).status).not.toBe(429);
});

test('anonymous sign-in is counted by address; after Retry-After seconds the window has freed', async () => {
  const attempt = () => call('POST', '/api/auth/login', undefined, { email: 'nobody@example.com', password: 'wrong-password' });
  // the function warmed in this window (a cold start under load can take seconds), then the four requests at the
  // start of the next 5-second window, so that they share it
  await attempt();
  const { statuses } = await inOneWindow(attempt, 4);
  expect(statuses).toEqual([401, 401, 401, 429]);
  const refused = await attempt();
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(5);

  await new Promise((r) => setTimeout(r, retryAfter * 1000));
  expect((await attempt()).status).toBe(401);
}, 30_000);

test('password-reset requests share the sign-in limit: a flood of reset mails is cut off too', async () => {
  const reset = () => call('POST', '/api/auth/forgot-password', undefined, { email: 'someone@example.com' });
  // warmed, then the start of the next 5-second window: the previous test's last attempt and the warm-up count in the current one
  // (the refusals counted are those of the requests that shared a window)
  await reset();
  const { statuses, since } = await inOneWindow(reset, 4);
  expect(statuses).toEqual([202, 202, 202, 429]);
  const refusals = e2e
    .logged('auth-forgot-password')
    .filter((r) => r.message === '[RATE_LIMIT] request refused' && Date.parse(String(r.timestamp)) >= since);
  expect(refusals).toHaveLength(1);
}, 30_000);
