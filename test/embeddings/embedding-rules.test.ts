/**
 * The embedding work's pure rules: how a failure is read, bisecting a refused request, the retry delay of a refused
 * chunk, report math, vector literals, time budgets and the worker's wake-ups.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';
import { timeBudgetFor } from '#core/embeddings/job';
import { publishSweepMetrics } from '#core/embeddings/metrics';
import { SERVICE_METRICS } from '#core/metrics';
import { sweepReportSchema } from '#core/embeddings/report';
import { AiRequestError } from '#core/ai/errors';
import { QuotaExhaustedError } from '#core/ai/quota';
import { chunksToSendNow, embedIsolating, refusalRetryDelayMs, type WorkTally } from '#core/embeddings/embedding-work';
import { errorMessageOf, gaveUp, isRefusedInput, isSystemicFailure, MAX_ERROR_MESSAGE, quotaRetryAt } from '#core/embeddings/failures';
import { fromVectorLiteral, toVectorLiteral } from '#core/embeddings/sources';
import { buildReport, pendingCutoff } from '#core/embeddings/sweeper';
import { wakeDelaySeconds, workerBudgetMs } from '#core/embeddings/worker';

const emptyTally = (): WorkTally => ({ embedded: 0, chunks: 0, requests: 0, failed: 0, gave_up: 0, skipped: 0, removed: 0, reset: 0 });
const named = (name: string) => Object.assign(new Error(name), { name });

test('while chunks still stream in, a claim sends whole requests only; a quiet or long-waiting tail goes at once', () => {
  const linger = { quietMs: 2_000, maxWaitMs: 10_000 };
  const ages = (n: number, oldest: number, newest: number) =>
    Array.from({ length: n }, (_, i) => oldest - ((oldest - newest) * i) / (n - 1));
  // 150 chunks, the newest written 500 ms ago: 96 now, the 54 wait until the tail's newest is 2 s old
  expect(chunksToSendNow(ages(150, 4_000, 500), 96, linger)).toEqual({ count: 96, retryInMs: 1_500 });
  // a partial claim alone waits too; whole requests never wait
  expect(chunksToSendNow(ages(10, 900, 100), 96, linger)).toEqual({ count: 0, retryInMs: 1_900 });
  expect(chunksToSendNow(ages(192, 5_000, 0), 96, linger)).toEqual({ count: 192 });
  // quiet for 2 s, or the oldest has waited 10 s: the partial request goes
  expect(chunksToSendNow(ages(10, 3_000, 2_000), 96, linger)).toEqual({ count: 10 });
  expect(chunksToSendNow(ages(10, 10_000, 0), 96, linger)).toEqual({ count: 10 });
  // the oldest's wait bounds the retry: 9.5 s waited, due in 0.5 s though chunks keep coming
  expect(chunksToSendNow(ages(10, 9_500, 0), 96, linger)).toEqual({ count: 0, retryInMs: 500 });
  // no linger (the sweeper, tests): everything at once
  expect(chunksToSendNow(ages(10, 900, 100), 96, undefined)).toEqual({ count: 10 });
});

test('a refusal gives a source up when it reaches the cap', () => {
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

test('systemic failures (throttling, quota, outage, network) stop the work; a bad request does not', () => {
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

test('a refused input is the model refusing the request (ValidationException), also inside the gateway’s AiRequestError', () => {
  expect(isRefusedInput(named('ValidationException'))).toBe(true);
  expect(isRefusedInput(new AiRequestError('us-east-1', named('ValidationException')))).toBe(true);
  for (const error of [
    new AiRequestError('us-east-1', named('AccessDeniedException')),
    new AiRequestError('us-east-1', named('ResourceNotFoundException')),
    named('ThrottlingException'),
    new Error('boom'),
    undefined,
  ])
    expect(isRefusedInput(error)).toBe(false);
});

test('a full quota is a wait until its retryAt; nothing else is', () => {
  const at = new Date('2026-01-01T09:01:00Z');
  expect(quotaRetryAt(new QuotaExhaustedError(['us-east-1'], at))).toEqual(at);
  expect(quotaRetryAt(named('QuotaExhaustedError'))).toBeUndefined();
  expect(quotaRetryAt(named('ThrottlingException'))).toBeUndefined();
});

describe('bisecting a refused request', () => {
  const refused = () => new AiRequestError('us-east-1', named('ValidationException'));
  /** a model that refuses any request holding a poison item, and records every request */
  const model = (poison: Set<number>) => {
    const requests: number[][] = [];
    const embed = async (group: number[]) => {
      requests.push(group);
      if (group.some((i) => poison.has(i))) throw refused();
      return group.map((i) => `v${i}`);
    };
    return { requests, embed };
  };
  const items = Array.from({ length: 96 }, (_, i) => i);

  test('no refusal: one request, every item embedded in order', async () => {
    const { requests, embed } = model(new Set());
    const out = await embedIsolating(items, embed);
    expect(requests).toEqual([items]);
    expect(out).toMatchObject({ requests: 1, refused: [], untried: [] });
    expect(out.embedded.map((e) => e.vector)).toEqual(items.map((i) => `v${i}`));
  });

  test('one poison item in 96: found in at most 2·⌈log2 96⌉ + 1 requests, the other 95 embedded', async () => {
    const { requests, embed } = model(new Set([37]));
    const out = await embedIsolating(items, embed);
    expect(out.refused.map((r) => r.item)).toEqual([37]);
    expect(out.embedded.map((e) => e.item).sort((a, b) => a - b)).toEqual(items.filter((i) => i !== 37));
    expect(out.requests).toBe(requests.length);
    expect(requests.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(96)) + 1);
    expect(out.refused[0]!.error).toBeInstanceOf(AiRequestError);
  });

  test('two poison items: both isolated, every other item embedded exactly once', async () => {
    const { requests, embed } = model(new Set([0, 95]));
    const out = await embedIsolating(items, embed);
    expect(out.refused.map((r) => r.item).sort((a, b) => a - b)).toEqual([0, 95]);
    expect(out.embedded).toHaveLength(94);
    const embeddedTimes = new Map<number, number>();
    for (const group of requests)
      if (!group.some((i) => i === 0 || i === 95)) for (const i of group) embeddedTimes.set(i, (embeddedTimes.get(i) ?? 0) + 1);
    expect([...embeddedTimes.values()].every((n) => n === 1)).toBe(true);
  });

  test('another failure mid-way stops the bisection: what was embedded stays, the rest is untried, the error is kept', async () => {
    const quota = new QuotaExhaustedError(['us-east-1'], new Date());
    let calls = 0;
    const out = await embedIsolating(items, async (group: number[]) => {
      calls++;
      if (calls === 1) throw refused(); // the whole batch
      if (calls === 2) return group.map((i) => `v${i}`); // its first half
      throw quota; // the second half: no slot
    });
    expect(out.embedded).toHaveLength(48);
    expect(out.untried).toEqual(items.slice(48));
    expect(out.stop).toBe(quota);
    expect(out.requests).toBe(2); // the refused request and the first half; the one refused a slot was never sent
  });

  test('an empty batch makes no request', async () => {
    expect(await embedIsolating([], async () => [])).toEqual({ embedded: [], refused: [], untried: [], requests: 0 });
  });
});

test('a refused chunk is tried again after 1, 2, 4, 8 minutes by its source’s attempts, at most 15', () => {
  expect([1, 2, 3, 4, 5, 9].map((a) => refusalRetryDelayMs(a) / 60_000)).toEqual([1, 2, 4, 8, 15, 15]);
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

test("report: the run's tally and the backlog, validated against the wire schema (the work's own counts stay out)", () => {
  const tally = { ...emptyTally(), embedded: 2, chunks: 3, requests: 9, failed: 2, gave_up: 1, skipped: 1, removed: 1, reset: 4 };
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

test("the worker's budget: at most 240 s, a minute short of what the invocation has left; its wake-up: 0 to 900 s", () => {
  expect(workerBudgetMs(300_000)).toBe(240_000);
  expect(workerBudgetMs(120_000)).toBe(60_000);
  expect(workerBudgetMs(30_000)).toBe(0);
  expect(workerBudgetMs(undefined)).toBe(240_000);
  const now = new Date('2026-01-01T09:00:00Z');
  expect(wakeDelaySeconds(new Date(now.getTime() + 41_200), now)).toBe(42);
  expect(wakeDelaySeconds(new Date(now.getTime() - 5_000), now)).toBe(0);
  expect(wakeDelaySeconds(new Date(now.getTime() + 3_600_000), now)).toBe(900);
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
