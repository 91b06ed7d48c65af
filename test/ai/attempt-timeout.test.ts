/**
 * Every Bedrock attempt is bounded (issue 14, item 2): the real SDK client against the local stand-in with
 * a latency fault, over the real database. Attempt timers run on the real clock (that is what is measured);
 * backoff sleeps are instant and the shedder reads a simulated clock.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { AiUnavailableError, classifyFailure } from '#core/ai/errors';
import { createAiGateway, type GatewayConfig } from '#core/ai/gateway';
import { QualityShedError } from '#core/ai/shedder';
import { AiAttemptTimeoutError, ATTEMPT_TIMEOUT_DEFAULTS_MS, parseAttemptTimeouts, withAttemptTimeout } from '#core/ai/timeouts';
import { logger } from '#core/logger';
import { startBedrockStandin, type BedrockStandin } from '../../lib/twin/bedrock-standin';
import { FALLBACK, gatewayConfig, PRIMARY } from '../support/ai';
import { useTestDatabase } from '../support/db';
import { standinClients } from '../support/standin-clients';

/** the attempt timeout under test, and a region "hung" well past it */
const TIMEOUT_MS = 300;
const HUNG_MS = 5_000;
/** slack for the database writes, the SDK's signing and the fallback's own (fast) answer */
const MARGIN_MS = 700;

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

const gatewayAt = (start: Date, url = standin.url, overrides: Partial<GatewayConfig> = {}) =>
  createAiGateway({ db, client: clientsFor(url), config: config(overrides), now: () => start, sleep: async () => undefined });

const ask = {
  system: 'Answer in JSON.',
  prompt: '[chunk:c1] The invoice was approved by Marcus Hale on 4 March.\n\nWho approved the invoice?',
};

const ledger = async () =>
  (await db.selectFrom('ai_calls').select(['purpose', 'region', 'outcome']).orderBy('id').execute()).map(
    (r) => `${r.purpose}:${r.region}:${r.outcome}`,
  );

const timed = async <T>(fn: () => Promise<T>): Promise<{ value: T | unknown; ms: number }> => {
  const started = performance.now();
  const value = await fn().catch((e: unknown) => e);
  return { value, ms: performance.now() - started };
};

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

test('withAttemptTimeout rejects at the bound even when the attempt ignores its signal, and leaves a fast one alone', async () => {
  const { value, ms } = await timed(() => withAttemptTimeout(100, () => new Promise((resolve) => setTimeout(resolve, 2_000))));
  expect(value).toBeInstanceOf(AiAttemptTimeoutError);
  expect(ms).toBeGreaterThanOrEqual(95);
  expect(ms).toBeLessThan(400);
  expect(await withAttemptTimeout(1_000, async () => 'fast')).toBe('fast');
});

test('a hung primary: the attempt is aborted at the timeout and the fallback region answers', async () => {
  const warn = jest.spyOn(logger, 'warn');
  standin.setFaults(PRIMARY, { latencyMs: HUNG_MS });
  const gateway = gatewayAt(new Date('2026-11-23T10:00:00Z'));
  const { value, ms } = await timed(() => gateway.converse({ purpose: 'analysis', ...ask }));
  expect(value).toMatchObject({ region: FALLBACK, fellBack: true, attempts: 2 });
  expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  expect(ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
  // one attempt in the hung region, not the retry budget: a hang costs one timeout
  expect(await ledger()).toEqual([`analysis:${PRIMARY}:timed_out`, `analysis:${FALLBACK}:ok`]);
  const row = await db
    .selectFrom('ai_calls')
    .select(['error_name', 'latency_ms'])
    .where('outcome', '=', 'timed_out')
    .executeTakeFirstOrThrow();
  expect(row.error_name).toBe('AiAttemptTimeoutError');
  expect(row.latency_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  expect(row.latency_ms).toBeLessThan(TIMEOUT_MS + 200);
  expect(warn.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining(['[AI:Timeout]', '[AI:fallback]']));
  expect(warn.mock.calls.find((c) => c[0] === '[AI:Timeout]')?.[1]).toMatchObject({
    region: PRIMARY,
    purpose: 'analysis',
    timeoutMs: TIMEOUT_MS,
  });
  warn.mockRestore();
});

test('both regions hung: the retry-later failure within 2 × the timeout plus margin', async () => {
  standin.setFaults(PRIMARY, { latencyMs: HUNG_MS });
  standin.setFaults(FALLBACK, { latencyMs: HUNG_MS });
  const gateway = gatewayAt(new Date('2026-11-23T11:00:00Z'));
  const { value, ms } = await timed(() => gateway.converse({ purpose: 'analysis', ...ask }));
  expect(value).toBeInstanceOf(AiUnavailableError);
  expect((value as AiUnavailableError).message).toMatch(/try again in a few minutes/);
  expect((value as AiUnavailableError).attempts.map((a) => a.region)).toEqual([PRIMARY, FALLBACK]);
  expect(ms).toBeGreaterThanOrEqual(2 * TIMEOUT_MS - 10);
  expect(ms).toBeLessThan(2 * TIMEOUT_MS + MARGIN_MS);
  expect(await ledger()).toEqual([`analysis:${PRIMARY}:timed_out`, `analysis:${FALLBACK}:timed_out`]);
});

test('embeddings are bounded too: a hung primary falls back', async () => {
  standin.setFaults(PRIMARY, { latencyMs: HUNG_MS });
  const gateway = gatewayAt(new Date('2026-11-23T12:00:00Z'));
  const { value, ms } = await timed(() =>
    gateway.embedTexts(['Brightline invoices split below the bid threshold'], { inputType: 'search_query' }),
  );
  expect(value).toMatchObject({ requests: [{ region: FALLBACK, fellBack: true }] });
  expect(ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
  expect(await ledger()).toEqual([`embedding:${PRIMARY}:timed_out`, `embedding:${FALLBACK}:ok`]);
});

test('the shedder counts timeouts: 4 timed-out attempts in the window make it hot, and a quality call is shed', async () => {
  standin.setFaults(PRIMARY, { latencyMs: HUNG_MS });
  standin.setFaults(FALLBACK, { latencyMs: HUNG_MS });
  const gateway = gatewayAt(new Date('2026-11-23T13:00:00Z'));
  await expect(gateway.converse({ purpose: 'analysis', ...ask })).rejects.toBeInstanceOf(AiUnavailableError);
  expect(await gateway.shedderStatus()).toMatchObject({ hot: false, recentThrottles: 2 });
  await expect(gateway.converse({ purpose: 'analysis', ...ask })).rejects.toBeInstanceOf(AiUnavailableError);
  expect(await gateway.shedderStatus()).toMatchObject({ hot: true, recentThrottles: 4 });
  standin.clearFaults();
  await expect(gateway.converse({ purpose: 'quality', ...ask })).rejects.toBeInstanceOf(QualityShedError);
});

test('the abort is real: the server sees the request closed at the timeout, not when it would have answered', async () => {
  const closedAfter: number[] = [];
  const server = http.createServer((req) => {
    const started = performance.now();
    req.resume();
    req.socket.on('close', () => closedAfter.push(performance.now() - started)); // never answered
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const gateway = gatewayAt(new Date('2026-11-23T14:00:00Z'), url);
    await expect(gateway.converse({ purpose: 'analysis', ...ask })).rejects.toBeInstanceOf(AiUnavailableError);
    for (let i = 0; i < 50 && closedAfter.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(closedAfter).toHaveLength(2); // one attempt per region, each connection closed by the client
    // the server's clock starts when the request has arrived, after the client's timer: on a loaded machine
    // that is tens of milliseconds late, so the close is bounded from above (the timeout, not the answer)
    // and only loosely from below (not an immediate failure)
    for (const ms of closedAfter) {
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS / 2);
      expect(ms).toBeLessThan(TIMEOUT_MS + 200);
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
