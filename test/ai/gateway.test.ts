/**
 * The AI gateway through the real Bedrock SDK client against the local stand-in, over the real
 * database: regional fallback, the throttle shedder, typed failures, the ledger. Time is simulated
 * (the shedder and quota read the injected clock), backoff sleeps are instant.
 */
import { sql } from 'kysely';
import { DEFAULT_AI_MODELS } from '#core/config';
import { AiRequestError, AiUnavailableError, backoffMs, classifyFailure, EmbeddingModelError } from '#core/ai/errors';
import { createAiGateway, type GatewayConfig } from '#core/ai/gateway';
import { QUOTA_LIMIT, QUOTA_WINDOW_MS, QuotaExhaustedError, reserve } from '#core/ai/quota';
import { QualityShedError } from '#core/ai/shedder';
import { logger } from '#core/logger';
import { FALLBACK, gatewayConfig, PRIMARY } from '../support/ai';
import { useTestDatabase } from '../support/db';
import { useStandin } from '../support/standin-clients';
import { embedText } from '../../lib/twin/bedrock/text';

const db = useTestDatabase();
const { standin, client } = useStandin();

beforeEach(async () => {
  standin().clearFaults();
  await sql`truncate ai_calls, ai_quota_reservations`.execute(db);
});

const config = gatewayConfig;

/** A gateway on a simulated clock that starts at `start` and only moves when told. */
const gatewayAt = (start: Date, overrides: Partial<GatewayConfig> = {}) => {
  const clock = { now: start };
  const gateway = createAiGateway({ db, client, config: config(overrides), now: () => clock.now, sleep: async () => undefined });
  return {
    gateway,
    clock,
    advance: (ms: number) => {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
};

const ask = {
  system: 'Answer in JSON.',
  prompt: '[chunk:c1] The invoice was approved by Marcus Hale on 4 March.\n\nWho approved the invoice?',
};

const ledger = async () =>
  (await db.selectFrom('ai_calls').select(['purpose', 'region', 'outcome']).orderBy('id').execute()).map(
    (r) => `${r.purpose}:${r.region}:${r.outcome}`,
  );

test('failures are classified by name, status and network code', () => {
  expect(classifyFailure({ name: 'ThrottlingException' })).toBe('throttle');
  expect(classifyFailure({ name: 'ServiceQuotaExceededException' })).toBe('throttle');
  expect(classifyFailure({ name: 'RateLimitError' })).toBe('throttle');
  expect(classifyFailure({ name: 'Whatever', $metadata: { httpStatusCode: 429 } })).toBe('throttle');
  expect(classifyFailure({ name: 'ServiceUnavailableException' })).toBe('retryable');
  expect(classifyFailure({ name: 'Weird', $metadata: { httpStatusCode: 502 } })).toBe('retryable');
  expect(classifyFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe('retryable');
  // what the SDK makes of a connection fault that is not an Error of its realm: the code only in the text
  expect(classifyFailure(new Error('AWS SDK error wrapper for TimeoutError: read ECONNRESET'))).toBe('retryable');
  expect(classifyFailure(new Error('the model refused: ECONNRESETS are not a thing'))).toBe('fatal');
  expect(classifyFailure({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } })).toBe('fatal');
  expect(classifyFailure({ name: 'AccessDeniedException' })).toBe('fatal');
  expect(backoffMs(1, 100, 1000, () => 1)).toBe(100);
  expect(backoffMs(5, 100, 1000, () => 1)).toBe(1000);
  expect(backoffMs(3, 100, 1000, () => 0)).toBe(0);
});

test('a healthy primary answers, and the call is in the ledger with its tokens', async () => {
  const { gateway } = gatewayAt(new Date('2026-11-22T10:00:00Z'));
  const out = await gateway.converse({ purpose: 'analysis', ...ask });
  expect(out.region).toBe(PRIMARY);
  expect(out.fellBack).toBe(false);
  expect(JSON.parse(out.text).findings[0].citations).toEqual(['c1']);
  const rows = await db.selectFrom('ai_calls').selectAll().execute();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ purpose: 'analysis', region: PRIMARY, outcome: 'ok', model_id: DEFAULT_AI_MODELS.analysis });
  expect(rows[0]!.output_tokens).toBe(out.usage.outputTokens);
  expect(out.usage.outputTokens).toBeGreaterThan(0);
});

test('a cached prefix: marked for a model with prompt caching, written by the first call and read by the next; sent whole to a model without', async () => {
  const passages = Array.from(
    { length: 120 },
    (_, i) => `[chunk:c${i}] Invoice ${1000 + i} was approved by Marcus Hale on ${(i % 28) + 1} March.`,
  );
  const cachedPrefix = `Evidence passages:\n\n${passages.join('\n\n')}\n\n`; // well over Sonnet's 1,024-token minimum
  const check = (ask: string) => ({
    purpose: 'quality' as const,
    system: 'Check the analysis. Answer in JSON.',
    cachedPrefix,
    prompt: ask,
  });
  const sonnet = gatewayAt(new Date('2026-11-29T10:00:00Z'), {
    models: { ...DEFAULT_AI_MODELS, quality: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
  });
  const first = await sonnet.gateway.converse(check('Check faithfulness.'));
  sonnet.advance(1_000);
  const second = await sonnet.gateway.converse(check('Check coverage, aspect by aspect.'));
  expect(first.usage.cacheWriteTokens).toBeGreaterThan(1_024);
  expect(first.usage.cacheReadTokens).toBe(0);
  expect(second.usage).toMatchObject({ cacheReadTokens: first.usage.cacheWriteTokens, cacheWriteTokens: 0 });
  // only what follows the prefix is billed at the full input price
  expect(second.usage.inputTokens).toBeLessThan(50);
  const rows = await db
    .selectFrom('ai_calls')
    .select(['input_tokens', 'cache_read_tokens', 'cache_write_tokens'])
    .orderBy('created_at')
    .execute();
  expect(rows).toEqual([
    { input_tokens: first.usage.inputTokens, cache_read_tokens: 0, cache_write_tokens: first.usage.cacheWriteTokens },
    { input_tokens: second.usage.inputTokens, cache_read_tokens: first.usage.cacheWriteTokens, cache_write_tokens: 0 },
  ]);

  // a model without prompt caching would refuse a cachePoint (ValidationException): it gets the same text as one prompt
  const llama = gatewayAt(new Date('2026-11-29T10:00:00Z'), {
    models: { ...DEFAULT_AI_MODELS, quality: 'meta.llama3-3-70b-instruct-v1:0' },
  });
  const whole = await llama.gateway.converse(check('Check faithfulness.'));
  expect(whole.usage).toEqual({
    inputTokens: first.usage.inputTokens + first.usage.cacheWriteTokens!,
    outputTokens: whole.usage.outputTokens,
  });
});

test('a throttle storm on the primary: retries, then the fallback serves, [AI:fallback] logged', async () => {
  const warn = jest.spyOn(logger, 'warn');
  standin().setFaults(PRIMARY, { throttleRatio: 1 });
  const { gateway } = gatewayAt(new Date('2026-11-22T11:00:00Z'));
  const out = await gateway.converse({ purpose: 'analysis', ...ask });
  expect(out.region).toBe(FALLBACK);
  expect(out.fellBack).toBe(true);
  expect(out.attempts).toBe(4);
  expect(await ledger()).toEqual([
    `analysis:${PRIMARY}:throttled`,
    `analysis:${PRIMARY}:throttled`,
    `analysis:${PRIMARY}:throttled`,
    `analysis:${FALLBACK}:ok`,
  ]);
  expect(warn.mock.calls.map((c) => c[0])).toContain('[AI:fallback]');
  warn.mockRestore();
});

test('a fallback region in another geography is called with its own inference profile (the configured one would be refused there)', async () => {
  standin().setFaults(PRIMARY, { throttleRatio: 1 });
  const europe = 'eu-west-1';
  const { gateway } = gatewayAt(new Date('2026-11-22T11:30:00Z'), { regions: { primary: PRIMARY, fallback: europe } });
  const model = DEFAULT_AI_MODELS.analysis.replace(/^us\./, '');
  const out = await gateway.converse({ purpose: 'analysis', ...ask });
  expect(out).toMatchObject({ region: europe, fellBack: true, modelId: `eu.${model}` });
  const rows = await db.selectFrom('ai_calls').select(['region', 'model_id', 'outcome']).orderBy('id').execute();
  expect(rows.at(-1)).toEqual({ region: europe, model_id: `eu.${model}`, outcome: 'ok' });
  expect(rows[0]).toEqual({ region: PRIMARY, model_id: DEFAULT_AI_MODELS.analysis, outcome: 'throttled' });
  // the embedding model is a foundation model: the same id in every region
  const embedded = await gateway.embedTexts(['the fallback embeds too'], { inputType: 'search_query' });
  expect(embedded.requests[0]!.modelId).toBe(DEFAULT_AI_MODELS.embedding);
});

test('4 throttles in 60 s: a quality call is shed before it starts, an analysis call at the same moment is served; 61 s later it is not hot', async () => {
  const warn = jest.spyOn(logger, 'warn');
  standin().setFaults(PRIMARY, { throttleRatio: 1 });
  const { gateway, advance } = gatewayAt(new Date('2026-11-22T12:00:00Z'));
  await gateway.converse({ purpose: 'analysis', ...ask }); // 3 throttles, served by the fallback
  advance(10_000);
  await gateway.converse({ purpose: 'analysis', ...ask }); // 3 more
  standin().clearFaults();
  const before = standin().stats()[PRIMARY]?.total ?? 0;
  await expect(gateway.converse({ purpose: 'quality', ...ask })).rejects.toBeInstanceOf(QualityShedError);
  expect(standin().stats()[PRIMARY]?.total ?? 0).toBe(before); // rejected before any request was sent
  expect(warn.mock.calls.map((c) => c[0])).toContain('[AI:Shed]');
  expect((await gateway.converse({ purpose: 'analysis', ...ask })).region).toBe(PRIMARY);
  expect(await gateway.shedderStatus()).toEqual({ hot: true, recentThrottles: 6, fallbackRegion: FALLBACK, disabled: false });

  advance(61_000); // every throttle is now older than the window
  expect((await gateway.shedderStatus()).hot).toBe(false);
  expect((await gateway.converse({ purpose: 'quality', ...ask })).region).toBe(PRIMARY);
  warn.mockRestore();
});

test('with the shedder disabled, quality calls are never shed', async () => {
  standin().setFaults(PRIMARY, { throttleRatio: 1 });
  const { gateway } = gatewayAt(new Date('2026-11-22T13:00:00Z'), { shedderDisabled: true });
  await gateway.converse({ purpose: 'analysis', ...ask });
  await gateway.converse({ purpose: 'analysis', ...ask });
  const out = await gateway.converse({ purpose: 'quality', ...ask });
  expect(out.region).toBe(FALLBACK);
  expect(await gateway.shedderStatus()).toMatchObject({ hot: false, disabled: true });
});

test('both regions down: a typed failure after each region spent its budget', async () => {
  standin().setFaults(PRIMARY, { outage: true });
  standin().setFaults(FALLBACK, { errorRatio: 1 });
  const { gateway } = gatewayAt(new Date('2026-11-22T14:00:00Z'));
  const error = await gateway.converse({ purpose: 'analysis', ...ask }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AiUnavailableError);
  expect((error as AiUnavailableError).message).toMatch(/try again/);
  expect((error as AiUnavailableError).attempts.map((a) => a.region)).toEqual([PRIMARY, PRIMARY, PRIMARY, FALLBACK, FALLBACK, FALLBACK]);
  expect((await ledger()).every((row) => row.endsWith(':error'))).toBe(true);
});

test('a validation error fails at once: no retry, no fallback', async () => {
  const { gateway } = gatewayAt(new Date('2026-11-22T15:00:00Z'), {
    models: { ...DEFAULT_AI_MODELS, analysis: DEFAULT_AI_MODELS.embedding },
  });
  const fallbackBefore = standin().stats()[FALLBACK]?.total ?? 0;
  await expect(gateway.converse({ purpose: 'analysis', ...ask })).rejects.toBeInstanceOf(AiRequestError);
  expect(await ledger()).toEqual([`analysis:${PRIMARY}:error`]);
  expect(standin().stats()[FALLBACK]?.total ?? 0).toBe(fallbackBefore);
});

test('over quota, a request goes to the other region (not to be throttled), and waits when both are full', async () => {
  const clock = { now: new Date('2026-11-22T17:00:00Z') };
  const sleep = async (ms: number) => {
    clock.now = new Date(clock.now.getTime() + ms);
  };
  const gateway = createAiGateway({ db, client, config: config({ quotaMaxWaitMs: 120_000 }), now: () => clock.now, sleep });
  for (let i = 0; i < QUOTA_LIMIT; i++) expect(await reserve(db, { region: PRIMARY, now: clock.now })).toEqual({ granted: true });
  const primaryBefore = standin().stats()[PRIMARY]?.total ?? 0;
  expect((await gateway.converse({ purpose: 'analysis', ...ask })).region).toBe(FALLBACK);
  expect(standin().stats()[PRIMARY]?.total ?? 0).toBe(primaryBefore); // nothing sent to a full region

  for (let i = 1; i < QUOTA_LIMIT; i++) await reserve(db, { region: FALLBACK, now: clock.now });
  const started = clock.now.getTime();
  const waited = await gateway.converse({ purpose: 'analysis', ...ask });
  expect(waited.region).toBe(PRIMARY); // the primary's window frees first
  expect(clock.now.getTime() - started).toBe(60_000);
  expect((await ledger()).filter((r) => r.endsWith(':throttled'))).toEqual([]);
});

test('both regions full past the longest wait: QuotaExhaustedError with its retryAt (wait your turn), never "unavailable", and nothing sent', async () => {
  const clock = { now: new Date('2026-11-22T17:30:00Z') };
  const sleep = async (ms: number) => {
    clock.now = new Date(clock.now.getTime() + ms);
  };
  const gateway = createAiGateway({ db, client, config: config({ quotaMaxWaitMs: 10_000 }), now: () => clock.now, sleep });
  const flooder = '00000000-0000-4000-8000-0000000000f1';
  for (const region of [PRIMARY, FALLBACK]) {
    for (let i = 0; i < QUOTA_LIMIT; i++) await reserve(db, { region, organizationId: flooder, now: clock.now });
  }
  const sent = (standin().stats()[PRIMARY]?.total ?? 0) + (standin().stats()[FALLBACK]?.total ?? 0);
  const call = gateway.converse({ purpose: 'analysis', ...ask, organizationId: '00000000-0000-4000-8000-0000000000b2' });
  await expect(call).rejects.toBeInstanceOf(QuotaExhaustedError);
  await expect(call).rejects.toMatchObject({ retryAt: new Date(Date.parse('2026-11-22T17:30:00Z') + QUOTA_WINDOW_MS) });
  expect((standin().stats()[PRIMARY]?.total ?? 0) + (standin().stats()[FALLBACK]?.total ?? 0)).toBe(sent);
});

test("a follow-up call (its work has spent a request) waits in process over its organization's share; a first call gives its work back", async () => {
  const clock = { now: new Date('2026-11-22T18:00:00Z') };
  const sleep = async (ms: number) => {
    clock.now = new Date(clock.now.getTime() + ms);
  };
  const gateway = createAiGateway({
    db,
    client,
    config: config({ quotaMaxWaitMs: 10_000, followUpQuotaMaxWaitMs: 30_000 }),
    now: () => clock.now,
    sleep,
  });
  const [mine, other] = ['00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000c2'];
  // mine: 30 grants in each region, 40 s ago (share 25 with the other organization active); the other's slots are free
  const earlier = new Date(clock.now.getTime() - 40_000);
  for (const region of [PRIMARY, FALLBACK]) {
    for (let i = 0; i < 30; i++) await reserve(db, { region, organizationId: mine, now: earlier });
    await reserve(db, { region, organizationId: other, now: earlier });
  }
  const first = gateway.converse({ purpose: 'quality', ...ask, organizationId: mine });
  await expect(first).rejects.toBeInstanceOf(QuotaExhaustedError);
  const started = clock.now.getTime();
  const followUp = await gateway.converse({ purpose: 'quality', ...ask, organizationId: mine, followUp: true });
  expect(followUp.region).toBe(PRIMARY);
  // until its grants of 40 s ago left the window
  expect(clock.now.getTime() - started).toBe(QUOTA_WINDOW_MS - 40_000);
});

test('embeddings go through the same path: 1024 unit-length dimensions, fallback on outage', async () => {
  const { gateway } = gatewayAt(new Date('2026-11-22T16:00:00Z'));
  const text = 'Brightline invoices split below the bid threshold';
  const a = await gateway.embedTexts([text], { inputType: 'search_document' });
  expect(a.embeddings[0]).toHaveLength(1024);
  expect(Math.hypot(...a.embeddings[0]!)).toBeCloseTo(1);
  expect(a.model).toBe(DEFAULT_AI_MODELS.embedding);
  standin().setFaults(PRIMARY, { outage: true });
  const b = await gateway.embedTexts([text], { inputType: 'search_document' });
  expect(b.requests).toMatchObject([{ region: FALLBACK, fellBack: true }]);
  expect(b.embeddings).toEqual(a.embeddings);
  expect(await ledger()).toContain(`embedding:${FALLBACK}:ok`);
});

test('texts are embedded 96 to a request, in order: one ledger row per request with its estimated input tokens', async () => {
  const { gateway } = gatewayAt(new Date('2026-11-22T16:30:00Z'));
  const texts = Array.from({ length: 200 }, (_, i) => `Invoice ${i} was approved by director number ${i % 7} in March.`);
  const before = standin().stats()[PRIMARY]?.ok ?? 0;
  const out = await gateway.embedTexts(texts, { inputType: 'search_document', organizationId: undefined, background: true });
  expect(out.requests).toHaveLength(3); // 96 + 96 + 8
  expect((standin().stats()[PRIMARY]?.ok ?? 0) - before).toBe(3);
  expect(out.embeddings).toHaveLength(200);
  expect(out.embeddings[150]).toEqual(embedText(texts[150]!, 1024));
  const rows = await db.selectFrom('ai_calls').select(['purpose', 'outcome', 'input_tokens']).orderBy('id').execute();
  const tokens = (from: number, to: number) => texts.slice(from, to).reduce((sum, t) => sum + Math.ceil(t.length / 4), 0);
  expect(rows).toEqual([
    { purpose: 'embedding', outcome: 'ok', input_tokens: tokens(0, 96) },
    { purpose: 'embedding', outcome: 'ok', input_tokens: tokens(96, 192) },
    { purpose: 'embedding', outcome: 'ok', input_tokens: tokens(192, 200) },
  ]);
  expect(out.usage.inputTokens).toBe(tokens(0, 200));
});

test('a text the model refuses fails the request at once, as a refused request (no retry, no fallback)', async () => {
  standin().setFaults(PRIMARY, { refuseText: 'POISON' });
  standin().setFaults(FALLBACK, { refuseText: 'POISON' });
  const { gateway } = gatewayAt(new Date('2026-11-22T17:00:00Z'));
  const refused = await gateway.embedTexts(['clean', 'a POISON text'], { inputType: 'search_document' }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(AiRequestError);
  expect((refused as AiRequestError).cause).toMatchObject({ name: 'ValidationException' });
  expect(await ledger()).toEqual([`embedding:${PRIMARY}:error`]);
});

test('an embedding model that cannot fill the vector(1024) column is a configuration error before any request', async () => {
  for (const embedding of ['cohere.embed-v4:0', 'amazon.titan-embed-text-v2:0']) {
    const { gateway } = gatewayAt(new Date('2026-11-22T17:30:00Z'), { models: { ...DEFAULT_AI_MODELS, embedding } });
    const error = await gateway.embedTexts(['x'], { inputType: 'search_query' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingModelError);
    expect((error as Error).message).toMatch(
      embedding === 'cohere.embed-v4:0' ? /1536-dimensional vectors.*vector\(1024\)/ : /not an embedding model/,
    );
  }
  expect(await ledger()).toEqual([]);
});
