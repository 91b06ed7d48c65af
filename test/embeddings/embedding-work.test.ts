/**
 * The embedding work through the real AI gateway and the Bedrock stand-in (Cohere Embed's body), on the real
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL): how many model requests a thousand chunks cost, a worker
 * killed mid-claim, a poison text, a change of model, and two organizations sharing the quota.
 *
 * The HNSW index is dropped in this file's database: what is under test is requests, leases and the quota, and
 * PGlite inserts into the m 32 graph at tens of milliseconds a vector (docs/operations.md), which would make these
 * thousands of chunks minutes of test.
 */
import { sql } from 'kysely';
import { createAiGateway, type GatewayConfig } from '#core/ai/gateway';
import { QUOTA_LIMIT, QUOTA_WINDOW_MS } from '#core/ai/quota';
import { searchChunks } from '#core/analysis/retrieval';
import { DEFAULT_AI_MODELS } from '#core/config';
import { claimChunks, storeVectors } from '#core/embeddings/chunk-claims';
import { embedWaitingChunks, gatewayEmbedder, STREAM_LINGER, type Embedder } from '#core/embeddings/embedding-work';
import { fromVectorLiteral, toVectorLiteral } from '#core/embeddings/sources';
import { embedText } from '../../lib/twin/bedrock/text';
import { FALLBACK, gatewayConfig, PRIMARY } from '../support/ai';
import { useTestDatabase } from '../support/db';
import { addWaitingChunks } from '../support/fixtures';
import { SimulatedTime } from '../support/simulated-time';
import { useStandin } from '../support/standin-clients';

const db = useTestDatabase();
const { standin, client } = useStandin();

const MODEL = DEFAULT_AI_MODELS.embedding;
const BUDGET = 240_000;

beforeAll(async () => {
  await sql`drop index text_chunks_embedding_idx`.execute(db);
});

beforeEach(async () => {
  standin().clearFaults();
  await db.deleteFrom('organizations').execute();
  await sql`truncate ai_calls, ai_quota_reservations`.execute(db);
});

const gatewayWith = (overrides: Partial<GatewayConfig> = {}, time?: SimulatedTime) =>
  createAiGateway({
    db,
    client,
    config: gatewayConfig({ quotaMaxWaitMs: 10_000, ...overrides }),
    ...(time && { now: time.now, sleep: time.sleep }),
  });

/** The gateway's embedder, recording the texts of every request it makes. */
const recording = (embedder: Embedder) => {
  const texts: string[][] = [];
  return {
    texts,
    embedder: { model: embedder.model, embed: async (batch: string[], org: string) => (texts.push(batch), embedder.embed(batch, org)) },
  };
};

const investigation = async (name: string) => {
  const org = (await db.insertInto('organizations').values({ name }).returning('id').executeTakeFirstOrThrow()).id;
  const id = (await db.insertInto('investigations').values({ organization_id: org, title: name }).returning('id').executeTakeFirstOrThrow())
    .id;
  return { org, id };
};

const ledgerRows = async () =>
  Number((await sql<{ n: number }>`select count(*)::int as n from ai_calls where purpose = 'embedding'`.execute(db)).rows[0]!.n);

const waiting = async () =>
  Number((await sql<{ n: number }>`select count(*)::int as n from text_chunks where embedding is null`.execute(db)).rows[0]!.n);

test('1,000 chunks are embedded in 11 model requests (96 a request), each chunk with its own vector', async () => {
  const { id } = await investigation('Thousand');
  const { embeddingSourceId } = await addWaitingChunks(db, id, 1_000);
  const before = standin().stats()[PRIMARY]?.ok ?? 0;

  const outcome = await embedWaitingChunks(db, { embedder: gatewayEmbedder(gatewayWith()), timeBudgetMs: BUDGET });

  expect(outcome).toMatchObject({ stopped_by: 'done', chunks: 1_000, requests: 11, embedded: 1, waiting: 0 });
  // the vectors were just stored: the graph gets them once the database has been quiet for a while, and the work
  // says when to come back for it
  const quietAt = outcome.next_at!.getTime() - Date.now();
  expect(quietAt).toBeGreaterThan(5_000);
  expect(quietAt).toBeLessThanOrEqual(20_000);
  const unplaced = async () =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from text_chunks
                                 where embedding is not null and not indexed and graph_via is null`.execute(db)
      ).rows[0]!.n,
    );
  expect(await unplaced()).toBe(1_000);
  // quiet since (as the clock would make it): the next run places them (in the graph, or behind a node of it) and has
  // nothing to come back for
  await sql`update text_chunks set embedded_at = embedded_at - interval '1 minute'`.execute(db);
  const later = await embedWaitingChunks(db, { embedder: gatewayEmbedder(gatewayWith()), timeBudgetMs: BUDGET });
  expect(later).toMatchObject({ stopped_by: 'done', chunks: 0, requests: 0, next_at: null });
  expect(await unplaced()).toBe(0);
  expect(await ledgerRows()).toBe(11);
  expect((standin().stats()[PRIMARY]?.ok ?? 0) - before).toBe(11);
  expect(await waiting()).toBe(0);
  const sample = await db
    .selectFrom('text_chunks')
    .select(['text', 'embedding', 'embedding_model'])
    .where('chunk_index', '=', 517)
    .executeTakeFirstOrThrow();
  // pgvector keeps single precision
  const expected = embedText(sample.text, 1024);
  fromVectorLiteral(sample.embedding!).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 6));
  expect(sample.embedding_model).toBe(MODEL);
  expect(await db.selectFrom('embedding_sources').select('status').where('id', '=', embeddingSourceId).executeTakeFirstOrThrow()).toEqual({
    status: 'embedded',
  });
}, 60_000);

test('while an upload streams in, the worker makes whole requests only; the partial rest goes once the stream is quiet', async () => {
  const streaming = await investigation('Streaming');
  const quiet = await investigation('Quiet');
  await addWaitingChunks(db, streaming.id, 150);
  await addWaitingChunks(db, quiet.id, 10);
  // the quiet investigation's chunks were written a while ago: its partial request is not held back
  await sql`update text_chunks set created_at = created_at - interval '5 seconds' where investigation_id = ${quiet.id}`.execute(db);
  const { texts, embedder } = recording(gatewayEmbedder(gatewayWith()));
  const run = () => embedWaitingChunks(db, { embedder, timeBudgetMs: BUDGET, linger: STREAM_LINGER });

  const startedAt = Date.now();
  const first = await run();
  expect(texts.map((t) => t.length).sort((a, b) => a - b)).toEqual([10, 96]);
  expect(first).toMatchObject({ stopped_by: 'done', chunks: 106, requests: 2, waiting: 54 });
  // back when the streaming tail has been quiet for STREAM_LINGER.quietMs: later than the run began, and at most
  // quietMs after it ended (bounds of the run's own times, so a slow run on a loaded machine still holds them)
  expect(first.next_at!.getTime()).toBeGreaterThan(startedAt);
  expect(first.next_at!.getTime()).toBeLessThanOrEqual(Date.now() + STREAM_LINGER.quietMs);

  // quiet since (as the clock would make it): the 54 go in one request
  await sql`update text_chunks set created_at = created_at - interval '3 seconds' where investigation_id = ${streaming.id}`.execute(db);
  const second = await run();
  expect(second).toMatchObject({ chunks: 54, requests: 1, waiting: 0, embedded: 1 });
  expect(texts.map((t) => t.length)).toContain(54);
  expect(await waiting()).toBe(0);
}, 60_000);

test('an investigation whose writer is done writing (a seed, the end of an import) sends its partial request at once', async () => {
  const seeded = await investigation('Seeded');
  await addWaitingChunks(db, seeded.id, 150);
  const { texts, embedder } = recording(gatewayEmbedder(gatewayWith()));
  const outcome = await embedWaitingChunks(db, { embedder, timeBudgetMs: BUDGET, linger: STREAM_LINGER, doneWriting: [seeded.id] });
  expect(texts.map((t) => t.length)).toEqual([96, 54]);
  expect(outcome).toMatchObject({ stopped_by: 'done', chunks: 150, requests: 2, waiting: 0, embedded: 1 });
}, 60_000);

test('a worker killed mid-claim: once its lease runs out, everything is embedded exactly once, nothing lost', async () => {
  const { id, org } = await investigation('Killed');
  await addWaitingChunks(db, id, 4 * 96);
  const gateway = gatewayWith();

  // the killed worker: claims four requests' worth with a short lease, stores its first request, and is gone
  const claim = (await claimChunks(db, { limit: 4 * 96, leaseMs: 1_500, maxAttempts: 5 }))!;
  expect(claim.chunks).toHaveLength(384);
  const first = claim.chunks.slice(0, 96);
  const { embeddings } = await gateway.embedTexts(
    first.map((c) => c.text),
    { inputType: 'search_document', organizationId: org, background: true },
  );
  const stored = await storeVectors(db, {
    lease: claim.lease,
    model: MODEL,
    vectors: first.map((c, i) => ({ id: c.id, embedding: toVectorLiteral(embeddings[i]!) })),
  });
  expect(stored).toHaveLength(96);

  // while its lease lives, the chunks it held are nobody else's
  const { texts, embedder } = recording(gatewayEmbedder(gateway));
  const early = await embedWaitingChunks(db, { embedder, timeBudgetMs: BUDGET });
  expect(early).toMatchObject({ chunks: 0, requests: 0, waiting: 288, stopped_by: 'done' });
  expect(early.next_at!.getTime()).toBeLessThanOrEqual(claim.lease.getTime() + 1);

  // the lease runs out: the rest is embedded, once
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, claim.lease.getTime() - Date.now()) + 200));
  const late = await embedWaitingChunks(db, { embedder, timeBudgetMs: BUDGET });
  expect(late).toMatchObject({ chunks: 288, requests: 3, waiting: 0, embedded: 1 });
  expect(late.next_at).not.toBeNull(); // only the graph's turn, once the database is quiet
  const sent = [...first.map((c) => c.text), ...texts.flat()];
  expect(sent).toHaveLength(384);
  expect(new Set(sent).size).toBe(384);
  expect(await waiting()).toBe(0);
  expect(await ledgerRows()).toBe(4);
}, 60_000);

test('a poison text is isolated: its request is bisected, its source alone is in error, every other chunk is embedded', async () => {
  standin().setFaults(PRIMARY, { refuseText: 'POISON' });
  standin().setFaults(FALLBACK, { refuseText: 'POISON' });
  const { id } = await investigation('Poison');
  const clean = await addWaitingChunks(db, id, 150);
  const poisoned = await addWaitingChunks(db, id, 40, (i) => (i === 7 ? 'This line is POISON to the model.' : `Memo line ${i}.`));

  const outcome = await embedWaitingChunks(db, { embedder: gatewayEmbedder(gatewayWith()), timeBudgetMs: BUDGET });

  expect(outcome).toMatchObject({ stopped_by: 'done', chunks: 189, failed: 1, gave_up: 0, embedded: 1 });
  // 2 batches (96, 94); the one holding the poison is halved down to it: at most 2·⌈log2 94⌉ more
  expect(outcome.requests).toBeGreaterThan(2);
  expect(outcome.requests).toBeLessThanOrEqual(2 + 2 * Math.ceil(Math.log2(94)) + 1);
  const source = (sourceId: string) =>
    db.selectFrom('embedding_sources').select(['status', 'attempts', 'error_message']).where('id', '=', sourceId).executeTakeFirstOrThrow();
  expect(await source(clean.embeddingSourceId)).toMatchObject({ status: 'embedded', attempts: 0 });
  expect(await source(poisoned.embeddingSourceId)).toEqual({
    status: 'error',
    attempts: 1,
    error_message: 'The AI service refused the request: ValidationException: The model could not process one of the input texts.',
  });
  const left = await db.selectFrom('text_chunks').select('text').where('embedding', 'is', null).execute();
  expect(left).toEqual([{ text: 'This line is POISON to the model.' }]);
  // a refusal is the request's own fault: no retry, no fallback (only primary rows are in the ledger)
  expect((await db.selectFrom('ai_calls').select('region').distinct().execute()).map((r) => r.region)).toEqual([PRIMARY]);
}, 60_000);

test('a change of embedding model: every chunk is embedded again by the new model, and retrieval never mixes the two', async () => {
  const { id } = await investigation('Models');
  await addWaitingChunks(db, id, 200);
  await embedWaitingChunks(db, { embedder: gatewayEmbedder(gatewayWith()), timeBudgetMs: BUDGET });
  const query = embedText('Ledger line 12 payment approved by director', 1024);
  expect((await searchChunks(db, id, query, { model: MODEL })).candidates).toHaveLength(20);

  const next = 'cohere.embed-multilingual-v3';
  const other = gatewayWith({ models: { ...DEFAULT_AI_MODELS, embedding: next } });
  const outcome = await embedWaitingChunks(db, { embedder: gatewayEmbedder(other), timeBudgetMs: BUDGET });

  expect(outcome).toMatchObject({ reset: 1, chunks: 200, requests: 3, embedded: 1, waiting: 0 });
  const models = await db.selectFrom('text_chunks').select('embedding_model').distinct().execute();
  expect(models).toEqual([{ embedding_model: next }]);
  expect((await searchChunks(db, id, query, { model: next })).candidates).toHaveLength(20);
  expect((await searchChunks(db, id, query, { model: MODEL })).candidates).toEqual([]);
  const rows = await db.selectFrom('ai_calls').select('model_id').distinct().orderBy('model_id').execute();
  expect(rows.map((r) => r.model_id)).toEqual([MODEL, next]);
}, 60_000);

test('two organizations share the quota: two workers take turns between their investigations, each organization gets its share', async () => {
  const START = Date.UTC(2026, 0, 1, 9);
  const a = await investigation('Org A');
  const b = await investigation('Org B');
  // A's backlog is older: oldest-first alone would serve A's 20 requests before B's first
  await addWaitingChunks(db, a.id, 20 * 96);
  await sql`update text_chunks set created_at = now() - interval '1 hour'`.execute(db);
  await addWaitingChunks(db, b.id, 20 * 96);
  // a third organization has the fallback region's minute and 15 of the primary's: 20 background slots are left
  await db
    .insertInto('ai_quota_reservations')
    .values([
      ...Array.from({ length: QUOTA_LIMIT }, () => ({
        region: FALLBACK,
        reserved_at: new Date(START),
        organization_id: null,
        granted: true,
      })),
      ...Array.from({ length: 15 }, () => ({ region: PRIMARY, reserved_at: new Date(START), organization_id: null, granted: true })),
    ])
    .execute();

  const time = new SimulatedTime(START);
  const embedder = gatewayEmbedder(gatewayWith({}, time));
  // each request answered, by organization and (simulated) minute
  const answered: { org: string; minute: number }[] = [];
  const counting: Embedder = {
    model: embedder.model,
    embed: async (texts, org) => {
      const vectors = await embedder.embed(texts, org);
      answered.push({ org, minute: Math.floor((time.now().getTime() - START) / QUOTA_WINDOW_MS) });
      return vectors;
    },
  };
  const run = () => embedWaitingChunks(db, { embedder: counting, timeBudgetMs: 10 * 60_000, now: time.now, sleep: time.sleep });
  const runs = [time.spawn(0, run), time.spawn(0, run)];
  time.start();
  const outcomes = await Promise.all(runs);

  expect(outcomes.reduce((sum, o) => sum + o.chunks, 0)).toBe(40 * 96);
  expect(await waiting()).toBe(0);
  const inMinute = (org: string, minute: number) => answered.filter((r) => r.org === org && r.minute === minute).length;
  const first = { a: inMinute(a.org, 0), b: inMinute(b.org, 0) };
  // the 20 slots of the first minute are shared: both organizations are served, each at least a quarter
  // (each worker's claim is four requests of one organization, so the split is fair to within a claim or two)
  expect(first.a + first.b).toBeGreaterThanOrEqual(18);
  expect(first.a + first.b).toBeLessThanOrEqual(20);
  expect({ first, fair: Math.min(first.a, first.b) >= 5 }).toEqual({ first, fair: true });
  // and the second minute (35 background slots) finishes both: 40 requests, one or two more where the two workers'
  // claims met (SKIP LOCKED leaves a claim short of a whole request: seen on PostgreSQL)
  expect(answered.filter((r) => r.minute > 1)).toEqual([]);
  expect(answered.length).toBeGreaterThanOrEqual(40);
  expect(answered.length).toBeLessThanOrEqual(42);
}, 120_000);
