/**
 * Dependencies down give 503 (issue 14, item 6), through the twin's HTTP API: with the database refused or
 * hung, a route answers 503 `database_unavailable` with Retry-After — promptly, well inside the function's
 * 10-s timeout (connect 3 s, query 5 s; the rate limiter gives up on its counter after 1 s and lets the request
 * through, logged) — and answers normally again once the database is back. PGlite, or real PostgreSQL with
 * TEST_DATABASE_URL.
 */
import { expectDatabaseUnavailable, timed } from '../support/database-unavailable';
import type { TwinTest } from '../support/twin';

export const databaseUnavailable = (e2e: TwinTest): void => {
  afterEach(async () => {
    await e2e.twin.databaseProxy.fault(undefined);
  });

  test('a refused database: 503 database_unavailable with Retry-After at once; the route recovers when it is back', async () => {
    const token = await e2e.token('investigator');
    const list = () => timed(() => e2e.call('GET', '/api/investigations', token));
    const warm = await list(); // warm, with an open connection
    expect(warm.status).toBe(200);

    await e2e.twin.databaseProxy.fault('down');
    const refused = await list();
    expectDatabaseUnavailable(refused);
    expect(refused.ms).toBeLessThan(5_000);
    expect(e2e.logged('investigations-list').some((r) => r.message === 'database unavailable' && r.level === 'ERROR')).toBe(true);
    expect(e2e.logged('investigations-list').some((r) => r.message === 'unhandled error')).toBe(false);

    await e2e.twin.databaseProxy.fault(undefined);
    const back = await list();
    expect(back.status).toBe(200);
    expect(back.body).toEqual(warm.body);
  }, 60_000);

  test('a hung database: 503 before the function times out, the rate limiter lets the request through; recovery after', async () => {
    const token = await e2e.token('investigator');
    const list = () => timed(() => e2e.call('GET', '/api/investigations', token));
    expect((await list()).status).toBe(200);
    const failOpen = () =>
      e2e.logged('investigations-list').filter((r) => r.message === '[RATE_LIMIT] counter store unavailable; request allowed');
    const before = failOpen().length;

    await e2e.twin.databaseProxy.fault('hung');
    const hung = await list();
    expectDatabaseUnavailable(hung);
    expect(hung.ms).toBeLessThan(9_000);
    expect(failOpen().length).toBe(before + 1);
    expect(failOpen().at(-1)?.error).toMatch(/did not answer within 1000 ms/);
    expect(e2e.twin.invocations('investigations-list').at(-1)).toMatchObject({ timedOut: false });

    await e2e.twin.databaseProxy.fault(undefined);
    expect((await list()).status).toBe(200);
  }, 60_000);
};
