/**
 * The classifier behind 503 database_unavailable: connection, timeout and pool errors of node-postgres and
 * PostgreSQL's connection SQLSTATEs are the database being unavailable; constraint violations, bugs and an AWS
 * SDK's own network failures are not. And the database timeouts a function gets from its own timeout.
 */
import { isDatabaseUnavailable, timeoutsFor } from '#core/db/errors';
import { functionTimeouts } from '#core/db/connection';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

test.each([
  ['refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
  ['timed out', withCode('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:5432')],
  ['reset', withCode('ECONNRESET', 'read ECONNRESET')],
  ['lost mid-query', new Error('Connection terminated unexpectedly')],
  [
    'pool connect timeout',
    new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') }),
  ],
  ['pool timeout (older pg-pool)', new Error('timeout exceeded when trying to connect')],
  ['query read timeout', new Error('Query read timeout')],
  ['a lost connection used again', new Error('Client was closed and is not queryable')],
  ['admin_shutdown', withCode('57P01', 'terminating connection due to administrator command')],
  ['crash_shutdown', withCode('57P02')],
  ['cannot_connect_now', withCode('57P03', 'the database system is starting up')],
  ['too_many_connections', withCode('53300', 'sorry, too many clients already')],
  ['statement_timeout', withCode('57014', 'canceling statement due to statement timeout')],
  ['connection_failure', withCode('08006', 'the proxy could not open a database connection')],
  ['connection_does_not_exist', withCode('08003')],
  ['inside an AggregateError', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed')],
  ['as the cause', new Error('loading the analysis failed', { cause: withCode('57P01') })],
])('%s → unavailable', (_, error) => {
  expect(isDatabaseUnavailable(error)).toBe(true);
});

test.each([
  ['unique_violation', withCode('23505', 'duplicate key value violates unique constraint')],
  ['syntax error', withCode('42601', 'syntax error at or near "selec"')],
  ['invalid text representation', withCode('22P02')],
  ['password authentication failed (a configuration error)', withCode('28P01')],
  ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ['an AWS SDK call that could not connect', Object.assign(withCode('ECONNREFUSED'), { $metadata: { attempts: 3 } })],
  ['an AWS SDK timeout', Object.assign(new Error('Connection terminated'), { $metadata: {} })],
  ['not an error', 'ECONNREFUSED'],
  ['nothing', undefined],
  ['null', null],
])('%s → not unavailable', (_, error) => {
  expect(isDatabaseUnavailable(error)).toBe(false);
});

test('a cycle of causes ends', () => {
  const error = new Error('a') as Error & { cause?: unknown };
  error.cause = error;
  expect(isDatabaseUnavailable(error)).toBe(false);
});

test('the timeouts are well inside the function timeout: connect + query wait end before the function does', () => {
  expect(timeoutsFor(10)).toEqual({ connectMs: 3_000, statementMs: 4_000, queryMs: 5_000 });
  expect(timeoutsFor(300)).toEqual({ connectMs: 5_000, statementMs: 60_000, queryMs: 61_000 });
  expect(timeoutsFor(5)).toEqual({ connectMs: 1_500, statementMs: 2_000, queryMs: 3_000 });
  for (const seconds of [5, 10, 29, 30, 60, 120, 300]) {
    const { connectMs, statementMs, queryMs } = timeoutsFor(seconds);
    expect(statementMs).toBeLessThan(queryMs);
    expect(connectMs + queryMs).toBeLessThan(seconds * 1000);
  }
});

test("a manifest function's pool gets them from its own timeout; other processes keep the defaults", () => {
  expect(functionTimeouts('analysis-get')).toEqual({ connectionTimeoutMillis: 3_000, statement_timeout: 4_000, query_timeout: 5_000 });
  expect(functionTimeouts('generation-worker')).toEqual({
    connectionTimeoutMillis: 5_000,
    statement_timeout: 60_000,
    query_timeout: 61_000,
  });
  expect(functionTimeouts('migrate')).toEqual({});
  expect(functionTimeouts(undefined)).toEqual({});
});
