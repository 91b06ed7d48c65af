/**
 * Every Bedrock attempt is bounded (issue 14, item 2), and a streamed answer by its first token and its silences too
 * (issue 29, item 2): the real SDK client against the local stand-in with a latency or stall fault, over the real database. No assertion reads the machine's clock: withAttemptTimeout runs
 * on jest's fake timers, to the millisecond, and the gateway's attempts on a timer of the test's
 * (attemptTimer), which records each attempt's timeout and fires it when the test says, so a healthy
 * region's answer never races a timer on a loaded machine. A "hung" region would answer in ten minutes,
 * past jest's timeout: a call that ends shows the attempt was given up. Backoff sleeps are instant and the
 * shedder reads a simulated clock.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { AiUnavailableError, classifyFailure } from '#core/ai/errors';
import { createAiGateway, gatewayConfigFromEnv, type GatewayConfig } from '#core/ai/gateway';
import { QualityShedError } from '#core/ai/shedder';
import {
  AiAttemptTimeoutError,
  ATTEMPT_TIMEOUT_DEFAULTS_MS,
  FIRST_TOKEN_TIMEOUT_MS,
  FOLLOW_UP_QUOTA_MAX_WAIT_MS,
  parseAttemptTimeouts,
  STREAM_IDLE_TIMEOUT_MS,
  streamBounds,
  withAttemptTimeout,
  type AttemptTimer,
} from '#core/ai/timeouts';
import { logger } from '#core/logger';
import { functionById } from '#manifest';
import { startBedrockStandin, type BedrockStandin } from '../../lib/twin/bedrock/standin';
import { FALLBACK, gatewayConfig, PRIMARY } from '../support/ai';
import { useTestDatabase } from '../support/db';
import { standinClients } from '../support/standin-clients';

/** the attempt timeout under test, and a region "hung" far past it and past jest's timeout of the test */
const TIMEOUT_MS = 300;
const HUNG_MS = 600_000;

const db = useTestDatabase();
let standin: BedrockStandin;
const made: ReturnType<typeof standinClients>[] = [];

beforeAll(async () => {
  standin = await startBedrockStandin();
});
afterAll(async () => {
  for (const clients of made) clients.destroyAll();
  await standin.stop();
});
beforeEach(async () => {
  standin.clearFaults();
  await sql`truncate ai_calls, ai_quota_reservations`.execute(db);
});

const clientsFor = (url: string) => {
  const clients = standinClients(() => url);
  made.push(clients);
  return clients.client;
};

const config = (overrides: Partial<GatewayConfig> = {}): GatewayConfig =>
  gatewayConfig({ attemptTimeoutMs: parseAttemptTimeouts(String(TIMEOUT_MS)), ...overrides });

/**
 * The gateway's attempt timers, held by the test: each records its timeout, and fires when the test fires it. An
 * attempt arms one timer at a time (a streamed answer arms another at each of its parts, cancelling the last).
 */
const attemptTimers = () => {
  const armed: { ms: number; fire: () => void; state: 'armed' | 'fired' | 'cancelled' }[] = [];
  let arrived: () => void = () => undefined;
  const timer: AttemptTimer = (ms, fire) => {
    const entry = { ms, fire, state: 'armed' as 'armed' | 'fired' | 'cancelled' };
    armed.push(entry);
    arrived();
    return () => {
      if (entry.state === 'armed') entry.state = 'cancelled';
    };
  };
  let from = 0;
  return {
    timer,
    /**
     * times out the next attempt (in start order) as soon as it has started: fires the timer it has armed (of `ms`,
     * when given: a stream that stalled has armed its idle bound's)
     */
    fireNext: async (ms?: number) => {
      for (;;) {
        const index = armed.findLastIndex((entry, i) => i >= from && entry.state === 'armed' && (ms === undefined || entry.ms === ms));
        if (index >= 0) {
          from = index + 1;
          armed[index]!.state = 'fired';
          return armed[index]!.fire();
        }
        await new Promise<void>((resolve) => (arrived = resolve));
      }
    },
    /** each timer's bound and state, in the order armed; a healthy streamed answer's last ones all cancelled */
    states: () => armed.map(({ ms, state }) => `${ms}:${state}`),
  };
};

const gatewayAt = (start: Date, attemptTimer: AttemptTimer, url = standin.url, overrides: Partial<GatewayConfig> = {}) =>
  createAiGateway({
    db,
    client: clientsFor(url),
    config: config(overrides),
    now: () => start,
    sleep: async () => undefined,
    attemptTimer,
  });

const ask = {
  system: 'Answer in JSON.',
  prompt: '[chunk:c1] The invoice was approved by Marcus Hale on 4 March.\n\nWho approved the invoice?',
};

const ledger = async () =>
  (await db.selectFrom('ai_calls').select(['purpose', 'region', 'outcome']).orderBy('id').execute()).map(
    (r) => `${r.purpose}:${r.region}:${r.outcome}`,
  );

/** the call's answer or error, whichever it settles with */
const outcome = <T>(promise: Promise<T>): Promise<T | unknown> => promise.catch((e: unknown) => e);

test('the defaults fit the functions: one primary and one fallback attempt and the quota waits inside the worker timeout, with margin', () => {
  const timeoutMs = (id: string) => functionById(id).timeoutSeconds * 1000;
  // each worker's second call is a follow-up, whose quota wait is longer
  const quotaWaitsMs = gatewayConfigFromEnv().quotaMaxWaitMs + FOLLOW_UP_QUOTA_MAX_WAIT_MS;
  // generation-worker: a query embedding and the analysis, each possibly timing out in both regions; 90 s left for the database
  expect(2 * ATTEMPT_TIMEOUT_DEFAULTS_MS.embedding + 2 * ATTEMPT_TIMEOUT_DEFAULTS_MS.analysis + quotaWaitsMs).toBeLessThanOrEqual(
    timeoutMs('generation-worker') - 90_000,
  );
  // and a primary answering after 90 s (issue 14) loses to the fallback
  expect(ATTEMPT_TIMEOUT_DEFAULTS_MS.analysis).toBeLessThan(90_000);
  // quality-worker: two checks in turn
  expect(2 * 2 * ATTEMPT_TIMEOUT_DEFAULTS_MS.quality + quotaWaitsMs).toBeLessThanOrEqual(timeoutMs('quality-worker') - 20_000);
  expect(parseAttemptTimeouts(undefined)).toEqual(ATTEMPT_TIMEOUT_DEFAULTS_MS);
  expect(parseAttemptTimeouts('2000')).toEqual({ analysis: 2000, quality: 2000, judge: 2000, embedding: 2000 });
  expect(parseAttemptTimeouts('analysis=60000, embedding=5000')).toEqual({
    ...ATTEMPT_TIMEOUT_DEFAULTS_MS,
    analysis: 60_000,
    embedding: 5000,
  });
  for (const bad of ['0', '-5', '1.5', 'fast', 'analysis=', 'speech=100', 'analysis=10=2'])
    expect(() => parseAttemptTimeouts(bad)).toThrow(/aiAttemptTimeoutMs/);
  expect(classifyFailure(new AiAttemptTimeoutError(5))).toBe('timeout');
  expect(classifyFailure({ name: 'TimeoutError' })).toBe('timeout');
  expect(classifyFailure({ name: 'ModelTimeoutException' })).toBe('retryable');
});

describe('withAttemptTimeout, on fake timers', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('rejects at the bound, not a millisecond sooner, even when the attempt ignores its signal; the signal aborts with the same error', async () => {
    let signal: AbortSignal | undefined;
    let settled: { value?: unknown; error?: unknown } | undefined;
    void withAttemptTimeout(100, (s) => {
      signal = s;
      return new Promise((resolve) => setTimeout(() => resolve('too late'), 2_000)); // never looks at its signal
    }).then(
      (value) => (settled = { value }),
      (error: unknown) => (settled = { error }),
    );
    await jest.advanceTimersByTimeAsync(99);
    expect(settled).toBeUndefined();
    expect(signal!.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(settled?.error).toBeInstanceOf(AiAttemptTimeoutError);
    expect((settled!.error as AiAttemptTimeoutError).timeoutMs).toBe(100);
    expect(signal!.aborted).toBe(true);
    expect(signal!.reason).toBe(settled!.error);
    // the attempt answering later changes nothing
    await jest.advanceTimersByTimeAsync(2_000);
    expect(settled?.error).toBeInstanceOf(AiAttemptTimeoutError);
  });

  test("an attempt that answers first wins, and its timer is cleared; the SDK's own AbortError is reported as the timeout", async () => {
    const before = jest.getTimerCount();
    let fastSignal: AbortSignal | undefined;
    const fast = withAttemptTimeout(1_000, async (s) => {
      fastSignal = s;
      return 'fast';
    });
    await expect(fast).resolves.toBe('fast');
    expect(jest.getTimerCount()).toBe(before);
    expect(fastSignal!.aborted).toBe(false);

    // an attempt that rejects when aborted, as the SDK does: the caller sees the timeout, not the AbortError
    const sdkLike = withAttemptTimeout(
      50,
      (s) => new Promise((_, reject) => s.addEventListener('abort', () => reject(new Error('AbortError')))),
    );
    const outcome = sdkLike.catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(50);
    expect(await outcome).toBeInstanceOf(AiAttemptTimeoutError);
  });

  test('a stream: its first token within the first-token bound, each silence within the idle bound, the whole within the attempt', async () => {
    const bounds = { attemptMs: 1_000, firstTokenMs: 200, idleMs: 100 };
    const settle = (run: Parameters<typeof withAttemptTimeout>[1]) => {
      const state: { error?: AiAttemptTimeoutError } = {};
      void withAttemptTimeout(bounds, run).catch((error: AiAttemptTimeoutError) => (state.error = error));
      return state;
    };
    const never = () => new Promise<never>(() => undefined);
    /** the attempt still runs a millisecond before `ms` (from its start), and is given up at `ms` with `expected` */
    const givenUpAt = async (state: { error?: AiAttemptTimeoutError }, ms: number, expected: Partial<AiAttemptTimeoutError>) => {
      await jest.advanceTimersByTimeAsync(ms - 1);
      expect(state.error).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      expect(state.error).toMatchObject(expected);
      expect(classifyFailure(state.error)).toBe('timeout');
    };

    await givenUpAt(settle(never), 200, { name: 'AiFirstTokenTimeoutError', bound: 'first_token', timeoutMs: 200 });
    // a part at 150 ms, then nothing: idle at 250 ms
    const stalled = settle((_signal, progress) => (setTimeout(progress, 150), never()));
    await givenUpAt(stalled, 250, { name: 'AiStreamIdleTimeoutError', bound: 'idle', timeoutMs: 100 });
    // a part every 90 ms, never idle: the attempt's bound ends it at 1,000 ms
    const endless = settle((_signal, progress) => (setInterval(progress, 90), never()));
    await givenUpAt(endless, 1_000, { name: 'AiAttemptTimeoutError', bound: 'attempt', timeoutMs: 1_000 });
    jest.clearAllTimers();
  });

  test('the stream bounds never exceed the attempt timeout: a stage that shortens it shortens them', () => {
    expect(streamBounds('analysis', ATTEMPT_TIMEOUT_DEFAULTS_MS.analysis)).toEqual({
      attemptMs: 80_000,
      firstTokenMs: 20_000,
      idleMs: 10_000,
    });
    expect(streamBounds('quality', 3_000)).toEqual({ attemptMs: 3_000, firstTokenMs: 3_000, idleMs: 3_000 });
  });
});

test('a hung primary: the attempt is aborted at its timeout and the fallback region answers', async () => {
  const warn = jest.spyOn(logger, 'warn');
  standin.setFaults(PRIMARY, { latencyMs: HUNG_MS });
  const timers = attemptTimers();
  const gateway = gatewayAt(new Date('2026-11-23T10:00:00Z'), timers.timer);
  const call = outcome(gateway.converse({ purpose: 'analysis', ...ask }));
  await timers.fireNext(); // the primary's attempt times out
  // answered, though the primary would answer in ten minutes: the fallback's healthy answer cancelled its own timer
  expect(await call).toMatchObject({ region: FALLBACK, fellBack: true, attempts: 2 });
  // the fallback's answer came in parts, each arming its bound again: all of them cancelled once it was whole
  const [primary, ...fallback] = timers.states();
  expect(primary).toBe(`${TIMEOUT_MS}:fired`);
  expect(fallback[0]).toBe(`${TIMEOUT_MS}:cancelled`);
  expect(fallback.every((state) => state.endsWith(':cancelled'))).toBe(true);
  // one attempt in the hung region, not the retry budget: a hang costs one timeout
  expect(await ledger()).toEqual([`analysis:${PRIMARY}:timed_out`, `analysis:${FALLBACK}:ok`]);
  const row = await db.selectFrom('ai_calls').select(['error_name']).where('outcome', '=', 'timed_out').executeTakeFirstOrThrow();
  expect(row.error_name).toBe('AiAttemptTimeoutError');
  expect(warn.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining(['[AI:Timeout]', '[AI:fallback]']));
  expect(warn.mock.calls.find((c) => c[0] === '[AI:Timeout]')?.[1]).toMatchObject({
    region: PRIMARY,
    purpose: 'analysis',
    timeoutMs: TIMEOUT_MS,
  });
  warn.mockRestore();
});

/** A gateway with the code's own bounds (the attempt timeouts, and under them the first-token and idle bounds). */
const defaultBounds = { attemptTimeoutMs: ATTEMPT_TIMEOUT_DEFAULTS_MS };

test('a primary that sends no first token is left at the first-token bound, a quarter of the attempt timeout', async () => {
  standin.setFaults(PRIMARY, { latencyMs: HUNG_MS });
  const timers = attemptTimers();
  const gateway = gatewayAt(new Date('2026-11-23T15:00:00Z'), timers.timer, standin.url, defaultBounds);
  const call = outcome(gateway.converse({ purpose: 'analysis', ...ask }));
  await timers.fireNext();
  expect(await call).toMatchObject({ region: FALLBACK, fellBack: true, attempts: 2 });
  expect(timers.states()[0]).toBe(`${FIRST_TOKEN_TIMEOUT_MS.analysis}:fired`);
  expect(FIRST_TOKEN_TIMEOUT_MS.analysis).toBeLessThanOrEqual(ATTEMPT_TIMEOUT_DEFAULTS_MS.analysis / 4);
  expect(await ledger()).toEqual([`analysis:${PRIMARY}:timed_out`, `analysis:${FALLBACK}:ok`]);
  const row = await db.selectFrom('ai_calls').select(['error_name']).where('outcome', '=', 'timed_out').executeTakeFirstOrThrow();
  expect(row.error_name).toBe('AiFirstTokenTimeoutError');
});

test('a stream that stops after its first part is left at the idle bound; the fallback answers whole', async () => {
  const warn = jest.spyOn(logger, 'warn');
  standin.setFaults(PRIMARY, { stallMs: HUNG_MS });
  const timers = attemptTimers();
  const gateway = gatewayAt(new Date('2026-11-23T16:00:00Z'), timers.timer, standin.url, defaultBounds);
  const call = outcome(gateway.converse({ purpose: 'analysis', ...ask }));
  // the idle bound (10 s, the first token's is 20 s): armed once the first part came, and not again
  await timers.fireNext(STREAM_IDLE_TIMEOUT_MS);
  const answer = await call;
  expect(answer).toMatchObject({ region: FALLBACK, fellBack: true, attempts: 2 });
  // the fallback's text is the whole answer, not the primary's first part followed by it
  standin.clearFaults();
  const whole = await gatewayAt(new Date('2026-11-23T16:30:00Z'), attemptTimers().timer).converse({ purpose: 'analysis', ...ask });
  expect((answer as typeof whole).text).toBe(whole.text);
  expect((await ledger()).slice(0, 2)).toEqual([`analysis:${PRIMARY}:timed_out`, `analysis:${FALLBACK}:ok`]);
  const row = await db.selectFrom('ai_calls').select(['error_name']).where('outcome', '=', 'timed_out').executeTakeFirstOrThrow();
  expect(row.error_name).toBe('AiStreamIdleTimeoutError');
  expect(warn.mock.calls.find((c) => c[0] === '[AI:Timeout]')?.[1]).toMatchObject({
    region: PRIMARY,
    purpose: 'analysis',
    timeoutMs: STREAM_IDLE_TIMEOUT_MS,
    errorName: 'AiStreamIdleTimeoutError',
  });
  warn.mockRestore();
});

test('both regions hung: the retry-later failure after one timed-out attempt in each, not the retry budget', async () => {
  standin.setFaults(PRIMARY, { latencyMs: HUNG_MS });
  standin.setFaults(FALLBACK, { latencyMs: HUNG_MS });
  const timers = attemptTimers();
  const gateway = gatewayAt(new Date('2026-11-23T11:00:00Z'), timers.timer);
  const call = outcome(gateway.converse({ purpose: 'analysis', ...ask }));
  await timers.fireNext();
  await timers.fireNext();
  const value = await call;
  expect(value).toBeInstanceOf(AiUnavailableError);
  expect((value as AiUnavailableError).message).toMatch(/try again in a few minutes/);
  expect((value as AiUnavailableError).attempts.map((a) => a.region)).toEqual([PRIMARY, FALLBACK]);
  expect(timers.states()).toEqual([`${TIMEOUT_MS}:fired`, `${TIMEOUT_MS}:fired`]);
  expect(await ledger()).toEqual([`analysis:${PRIMARY}:timed_out`, `analysis:${FALLBACK}:timed_out`]);
});

test('embeddings are bounded too: a hung primary falls back', async () => {
  standin.setFaults(PRIMARY, { latencyMs: HUNG_MS });
  const timers = attemptTimers();
  const gateway = gatewayAt(new Date('2026-11-23T12:00:00Z'), timers.timer);
  const call = outcome(gateway.embedTexts(['Brightline invoices split below the bid threshold'], { inputType: 'search_query' }));
  await timers.fireNext();
  expect(await call).toMatchObject({ requests: [{ region: FALLBACK, fellBack: true }] });
  expect(timers.states()).toEqual([`${TIMEOUT_MS}:fired`, `${TIMEOUT_MS}:cancelled`]);
  expect(await ledger()).toEqual([`embedding:${PRIMARY}:timed_out`, `embedding:${FALLBACK}:ok`]);
});

test('the shedder counts timeouts: 4 timed-out attempts in the window make it hot, and a quality call is shed', async () => {
  standin.setFaults(PRIMARY, { latencyMs: HUNG_MS });
  standin.setFaults(FALLBACK, { latencyMs: HUNG_MS });
  const timers = attemptTimers();
  const gateway = gatewayAt(new Date('2026-11-23T13:00:00Z'), timers.timer);
  const hung = async () => {
    const call = outcome(gateway.converse({ purpose: 'analysis', ...ask }));
    await timers.fireNext();
    await timers.fireNext();
    expect(await call).toBeInstanceOf(AiUnavailableError);
  };
  await hung();
  expect(await gateway.shedderStatus()).toMatchObject({ hot: false, recentThrottles: 2 });
  await hung();
  expect(await gateway.shedderStatus()).toMatchObject({ hot: true, recentThrottles: 4 });
  standin.clearFaults();
  await expect(gateway.converse({ purpose: 'quality', ...ask })).rejects.toBeInstanceOf(QualityShedError);
});

test('the abort is real: a request the server holds, and never answers, is closed by the client when its timer fires', async () => {
  const received: (() => void)[] = [];
  const arrivals: Promise<void>[] = [new Promise((resolve) => received.push(resolve)), new Promise((resolve) => received.push(resolve))];
  const closes: Promise<void>[] = [];
  let open = 0;
  const server = http.createServer((req) => {
    req.resume();
    open++;
    closes.push(new Promise((resolve) => req.socket.on('close', () => (open--, resolve())))); // never answered
    received.shift()?.();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const timers = attemptTimers();
    const gateway = gatewayAt(new Date('2026-11-23T14:00:00Z'), timers.timer, url);
    const call = outcome(gateway.converse({ purpose: 'analysis', ...ask }));
    for (const arrival of arrivals) {
      await arrival; // the attempt's request is at the server, held open
      expect(open).toBe(1);
      await timers.fireNext();
      await closes.at(-1); // the client closed it: the server never closes one
      expect(open).toBe(0);
    }
    expect(await call).toBeInstanceOf(AiUnavailableError);
    expect(timers.states()).toEqual([`${TIMEOUT_MS}:fired`, `${TIMEOUT_MS}:fired`]);
    expect(await ledger()).toEqual([`analysis:${PRIMARY}:timed_out`, `analysis:${FALLBACK}:timed_out`]);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
