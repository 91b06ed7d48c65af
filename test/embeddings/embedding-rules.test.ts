/** The sweeper's pure rules: selection, failure accounting, report math, vector literals, time budgets. */
import { Metrics } from '@aws-lambda-powertools/metrics';
import { timeBudgetFor } from '#core/embeddings/job';
import { publishSweepMetrics } from '#core/embeddings/metrics';
import { SERVICE_METRICS } from '#core/metrics';
import { sweepReportSchema } from '#core/embeddings/report';
import { fromVectorLiteral, isRetryable, toVectorLiteral } from '#core/embeddings/sources';
import {
  addOutcome,
  buildReport,
  emptyTally,
  errorMessageOf,
  gaveUp,
  isSystemicFailure,
  MAX_ERROR_MESSAGE,
  pendingCutoff,
} from '#core/embeddings/sweeper';

test('which rows a sweep may pick: pending always, errors below the cap, never embedded', () => {
  expect(isRetryable({ status: 'pending', attempts: 0 }, 5)).toBe(true);
  expect(isRetryable({ status: 'pending', attempts: 9 }, 5)).toBe(true);
  expect(isRetryable({ status: 'error', attempts: 4 }, 5)).toBe(true);
  expect(isRetryable({ status: 'error', attempts: 5 }, 5)).toBe(false);
  expect(isRetryable({ status: 'embedded', attempts: 1 }, 5)).toBe(false);
});

test('a failure gives a source up when it reaches the cap', () => {
  expect([1, 4, 5, 6].map((a) => gaveUp(a, 5))).toEqual([false, false, true, true]);
});

test('the stored message is the error message; empty or odd errors still say something; long ones are cut', () => {
  expect(errorMessageOf(new Error('model said no'))).toBe('model said no');
  expect(errorMessageOf(Object.assign(new Error(''), { name: 'ModelTimeoutException' }))).toBe('ModelTimeoutException');
  expect(errorMessageOf('plain string')).toBe('plain string');
  expect(errorMessageOf(undefined)).toBe('undefined');
  expect(errorMessageOf('   ')).toBe('Unknown error');
  const long = errorMessageOf(new Error('x'.repeat(5000)));
  expect(long).toHaveLength(MAX_ERROR_MESSAGE);
  expect(long.endsWith('…')).toBe(true);
});

test('systemic failures (throttling, quota, outage, network) stop a sweep; a bad request does not', () => {
  const named = (name: string) => Object.assign(new Error(name), { name });
  for (const name of [
    'ThrottlingException',
    'ServiceQuotaExceededException',
    'ServiceUnavailableException',
    'QuotaExhaustedError',
    'AiUnavailableError',
  ]) {
    expect([name, isSystemicFailure(named(name))]).toEqual([name, true]);
  }
  expect(isSystemicFailure(Object.assign(new Error('x'), { $metadata: { httpStatusCode: 429 } }))).toBe(true);
  expect(isSystemicFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
  for (const error of [named('ValidationException'), named('AiRequestError'), new Error('boom'), undefined, 'text']) {
    expect(isSystemicFailure(error)).toBe(false);
  }
});

test('pgvector literals: exact length, finite numbers, round trip', () => {
  const v = Array.from({ length: 1024 }, (_, i) => (i % 7) / 10 - 0.3);
  expect(fromVectorLiteral(toVectorLiteral(v))).toEqual(v);
  expect(toVectorLiteral([1, -0.5, 1e-7], 3)).toBe('[1,-0.5,1e-7]');
  expect(() => toVectorLiteral([1, 2, 3])).toThrow('The embedding has 3 dimensions; 1024 were expected.');
  expect(() => toVectorLiteral([1, Number.NaN], 2)).toThrow(/finite/);
  expect(() => toVectorLiteral(undefined as unknown as number[])).toThrow(/no dimensions/);
});

test('the 24-hour cutoff', () => {
  expect(pendingCutoff(new Date('2025-03-02T12:00:00Z')).toISOString()).toBe('2025-03-01T12:00:00.000Z');
});

test('tally and report: outcomes add up, the report validates against the wire schema', () => {
  let tally = emptyTally();
  for (const outcome of [
    { kind: 'embedded', chunks: 3 },
    { kind: 'embedded', chunks: 0 },
    { kind: 'failed', error: new Error('x'), gaveUp: false },
    { kind: 'failed', error: new Error('y'), gaveUp: true },
    { kind: 'skipped', reason: 'not_ready' },
    { kind: 'removed' },
  ] as const)
    tally = addOutcome(tally, outcome);
  expect(tally).toEqual({ embedded: 2, chunks: 3, failed: 2, gave_up: 1, skipped: 1, removed: 1 });
  const report = buildReport({
    tally,
    backlog: { pendingOlderThanCutoff: 4, remaining: 7, givenUp: 2 },
    maxAttempts: 5,
    stoppedBy: 'time_budget',
    startedAt: new Date('2025-03-02T12:00:00Z'),
    finishedAt: new Date('2025-03-02T12:00:01.250Z'),
  });
  expect(report).toEqual({
    embedded: 2,
    chunks: 3,
    failed: 2,
    gave_up: 1,
    skipped: 1,
    removed: 1,
    remaining: 7,
    errors_given_up: 2,
    pendingOver24hAfterSweep: 4,
    max_attempts: 5,
    stopped_by: 'time_budget',
    started_at: '2025-03-02T12:00:00.000Z',
    finished_at: '2025-03-02T12:00:01.250Z',
    duration_ms: 1250,
  });
  expect(sweepReportSchema.parse(report)).toEqual(report);
});

test('time budgets: a scheduled run keeps a margin of the Lambda timeout, an HTTP run fits API Gateway', () => {
  expect(timeBudgetFor('schedule', 300_000)).toBe(240_000);
  expect(timeBudgetFor('schedule', 100_000)).toBe(70_000);
  expect(timeBudgetFor('schedule', 10_000)).toBe(0);
  expect(timeBudgetFor('schedule', undefined)).toBe(240_000);
  expect(timeBudgetFor('http', 300_000)).toBe(20_000);
  expect(timeBudgetFor('http', undefined)).toBe(20_000);
});

test('the metric: PendingOver24hAfterSweep in namespace InvestigationAnalysis as one EMF line on stdout', () => {
  const lines: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    const metrics = new Metrics({ namespace: SERVICE_METRICS.namespace, serviceName: 'investigation-analysis' });
    publishSweepMetrics(
      buildReport({
        tally: emptyTally(),
        backlog: { pendingOlderThanCutoff: 3, remaining: 1, givenUp: 0 },
        maxAttempts: 5,
        stoppedBy: 'done',
        startedAt: new Date(),
        finishedAt: new Date(),
      }),
      metrics,
    );
  } finally {
    write.mockRestore();
  }
  const emf = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => '_aws' in l) as {
    _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
    [key: string]: unknown;
  };
  expect(emf._aws.CloudWatchMetrics).toEqual([
    {
      Namespace: 'InvestigationAnalysis',
      Dimensions: [['service']],
      Metrics: [{ Name: 'PendingOver24hAfterSweep', Unit: 'Count' }],
    },
  ]);
  expect(emf.PendingOver24hAfterSweep).toBe(3);
  expect(emf.service).toBe('investigation-analysis');
});
