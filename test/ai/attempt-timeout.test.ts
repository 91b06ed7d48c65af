/**
 * Every Bedrock attempt is bounded (issue 14, item 2): the real SDK client against the local stand-in with
 * a latency fault, over the real database. No assertion reads the machine's clock: withAttemptTimeout runs
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
import { createAiGateway, type GatewayConfig } from '#core/ai/gateway';
import { QualityShedError } from '#core/ai/shedder';
import {
  AiAttemptTimeoutError,
  ATTEMPT_TIMEOUT_DEFAULTS_MS,
  parseAttemptTimeouts,
  withAttemptTimeout,
  type AttemptTimer,
} from '#core/ai/timeouts';
import { logger } from '#core/logger';
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

/** The gateway's attempt timers, held by the test: each records its timeout, and fires when the test fires it. */
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
  /** the next attempt's timer, once that attempt has started */
  const next = async (index: number) => {
    while (armed.length <= index) await new Promise<void>((resolve) => (arrived = resolve));
    return armed[index]!;
  };
  let firedSoFar = 0;
  return {
    timer,
    /** times out the next attempt (in start order) as soon as it has started */
    fireNext: async () => {
      const entry = await next(firedSoFar++);
      entry.state = 'fired';
      entry.fire();
    },
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

test('the defaults fit the functions: one primary and one fallback attempt inside the worker timeout, with margin', () => {
  // generation-worker 300 s: a query embedding and the analysis, each possibly timing out in both regions
  expect(2 * ATTEMPT_TIMEOUT_DEFAULTS_MS.embedding + 2 * ATTEMPT_TIMEOUT_DEFAULTS_MS.analysis).toBeLessThanOrEqual(300_000 - 120_000);
  // and a primary answering after 90 s (issue 14) loses to the fallback
  expect(ATTEMPT_TIMEOUT_DEFAULTS_MS.analysis).toBeLessThan(90_000);
  // quality-worker 120 s: two checks in turn
  expect(2 * 2 * ATTEMPT_TIMEOUT_DEFAULTS_MS.quality).toBeLessThanOrEqual(120_000 - 20_000);
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
  expect(timers.states()).toEqual([`${TIMEOUT_MS}:fired`, `${TIMEOUT_MS}:cancelled`]);
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
