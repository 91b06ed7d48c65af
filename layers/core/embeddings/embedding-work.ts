/**
 * The embedding work, which the embedding worker (worker.ts) and the hourly sweeper (sweeper.ts) both run: embed the
 * chunks waiting for their vectors, many to a model request, until none waits or the time budget is spent.
 *
 * 1. Materialise: rows pending with no chunk at all (written before migration 0014, or by the seed loader) get
 *    their text written as chunks (sources.ts materializeSources).
 * 2. A change of model: up to `resetBatch` representatives embedded by another model than the configured one (and
 *    their duplicates) lose their vectors and wait again; retrieval searches the configured model's vectors only,
 *    so the old ones are of no use. Each run takes a batch, so a large corpus is re-embedded over several runs.
 * 3. Claims: up to `requestsPerClaim` × 96 waiting chunks of one investigation (chunk-claims.ts: the organization
 *    this run served longest ago first, then the oldest waiting work), leased; 96 to a model request (Cohere Embed's
 *    most), made for the investigation's organization (its fair share of the quota) as background work (analyses
 *    keep the rest of the primary region: ai/quota.ts BACKGROUND_PRIMARY_LIMIT). The lease is renewed before each
 *    request, and the vectors are stored after each request, conditional on the lease: a chunk claimed again after
 *    its lease ran out (a killed worker) is written once, by the claim that holds it. Stored vectors are copied to
 *    the chunk's near-duplicates, and a source none of whose chunks waits is marked embedded.
 *    While an investigation's text is still streaming in (an upload of many files), a claim's last, partial request
 *    waits for more chunks (`StreamLinger`, the worker's setting): only whole requests are made until no chunk has
 *    been written for `quietMs`, or the oldest waiting one has waited `maxWaitMs` — so an import costs about
 *    chunks / 96 requests, not one more per wake-up, and a lone upload waits at most `quietMs` longer.
 * 4. With nothing left to embed, the stored vectors are put into the HNSW graph a slice at a time (an insert costs
 *    the database 20–40 ms: off the path to analysable, since retrieval reads vectors not yet in the graph exactly).
 *
 * Failures (failures.ts):
 * - a full quota (QuotaExhaustedError) is a wait: the claim is given back and the work goes on at retryAt when that
 *   is inside the budget, else stops and says when (`next_at`);
 * - a request the model refuses (ValidationException: a poison text) is bisected until the refused chunk(s) are
 *   found; the rest is stored; each refused chunk's source gets status error, attempts + 1 and the model's message,
 *   and the chunk is not claimed again before refusalRetryDelayMs (given up at EMBEDDING_MAX_ATTEMPTS);
 * - anything else (throttling, an outage, the network, a misconfigured model) gives the claim back and stops the
 *   work, blaming no text.
 */
import { sql, type Kysely } from 'kysely';
import { EMBED_BATCH_SIZE, type AiGateway } from '#core/ai/gateway';
import { EmbeddingModelError } from '#core/ai/errors';
import type { Database } from '#core/db/schema';
import { EMBEDDING_MAX_ATTEMPTS } from '#core/ingestion/readiness';
import { logger } from '#core/logger';
import {
  claimChunks,
  deferChunks,
  fillDuplicates,
  placeStoredVectors,
  releaseChunks,
  renewLease,
  resetOtherModel,
  storeVectors,
  waitingWork,
  type ChunkClaim,
  type ClaimedChunk,
} from './chunk-claims';
import { errorMessageOf, gaveUp, isRefusedInput, quotaRetryAt } from './failures';
import type { StoppedBy } from './report';
import { markPending, materializeSources, recordRefusals, settleSources, toVectorLiteral } from './sources';

const EMBEDDING_WORK = {
  /** texts per model request: the most Cohere Embed takes */
  batchSize: EMBED_BATCH_SIZE,
  /** model requests' worth of chunks in one claim (the lease is renewed before each) */
  requestsPerClaim: 4,
  /** a claim's lease: a request's worst case (a 10 s quota wait, two 10 s attempts) and its store fit many times */
  leaseMs: 120_000,
  /** rows written without chunks, materialised per transaction */
  materializeBatch: 50,
  /** stored vectors put into the HNSW graph between two looks at the clock */
  indexBatch: 256,
  /**
   * the graph is grown only once no vector has been stored for this long: while evidence streams in, its inserts
   * (20–40 ms a vector on the database, PGlite's one session) would take turns with the writers; retrieval finds
   * the stored vectors exactly meanwhile
   */
  indexQuietMs: 20_000,
  /** representatives of another model set to wait again per run (about what a run embeds in its budget) */
  resetBatch: 10_000,
  /** when the AI service is unavailable, the worker looks again this much later */
  unavailableRetryMs: 120_000,
  /** chunks wait that no claim could take (another worker's claim statement held them at that moment): look again then */
  raceRetryMs: 5_000,
} as const;

/** How long a partial request waits for more of a streaming investigation's chunks (see the top). */
export interface StreamLinger {
  /** a partial request is made once no chunk of it has been written for this long */
  quietMs: number;
  /** … or once its oldest chunk has waited this long */
  maxWaitMs: number;
}

/**
 * The embedding worker's linger: a thousand-file upload writes a request's worth of chunks every second or two
 * (docs/ingestion.md "Measured"); waiting 2 s makes the last, partial request of each wake-up a whole one.
 */
export const STREAM_LINGER: StreamLinger = { quietMs: 2_000, maxWaitMs: 10_000 };

/**
 * Whether stored vectors wait to enter the HNSW graph, and when the database will have been quiet long enough to put
 * them there (the latest vector's time plus `quietMs`, from the embedded_at index's last entry), on its own clock.
 */
const indexingState = async (db: Kysely<Database>, quietMs: number) => {
  const { rows } = await sql<{ waiting: boolean; quiet_at: Date | null; busy: boolean }>`
    select exists (select 1 from text_chunks
                   where embedding is not null and duplicate_of is null and not indexed and graph_via is null) as waiting,
           last.at + ${quietMs} * interval '1 millisecond' as quiet_at,
           coalesce(last.at + ${quietMs} * interval '1 millisecond' > now(), false) as busy
    from (select max(embedded_at) as at from text_chunks where embedded_at is not null) last`.execute(db);
  return rows[0]!;
};

/** The model, as the work sees it: one request's vectors for an organization, and the model they come from. */
export interface Embedder {
  /** the configured embedding model: what text_chunks.embedding_model records, and retrieval searches */
  model: string;
  /** ONE model request: the vectors of at most EMBED_BATCH_SIZE texts, in order */
  embed: (texts: string[], organizationId: string) => Promise<number[][]>;
}

/** The AI gateway as the embedder: documents, for the organization's fair share, as background work. */
export const gatewayEmbedder = (gateway: Pick<AiGateway, 'embedTexts' | 'embeddingModel'>): Embedder => ({
  model: gateway.embeddingModel,
  embed: async (texts, organizationId) =>
    (await gateway.embedTexts(texts, { inputType: 'search_document', organizationId, background: true })).embeddings,
});

// ---- pure rules ------------------------------------------------------------------------------

/**
 * How many of a claim's chunks (ages in their order, oldest first) go to the model now: all, unless the last request
 * would be partial while its chunks are still streaming in (the newest younger than `quietMs`, the oldest younger
 * than `maxWaitMs`); then the whole requests only, and the rest waits `retryInMs`.
 */
export const chunksToSendNow = (
  agesMs: readonly number[],
  batchSize: number,
  linger: StreamLinger | undefined,
): { count: number; retryInMs?: number } => {
  const whole = agesMs.length - (agesMs.length % batchSize);
  if (!linger || whole === agesMs.length) return { count: agesMs.length };
  const tail = agesMs.slice(whole);
  const newest = Math.min(...tail);
  const oldest = Math.max(...tail);
  if (newest >= linger.quietMs || oldest >= linger.maxWaitMs) return { count: agesMs.length };
  return { count: whole, retryInMs: Math.min(linger.quietMs - newest, linger.maxWaitMs - oldest) };
};

/** How long a chunk the model refused waits before it is tried again: 1, 2, 4, 8 … minutes by its source's attempts, at most 15. */
export const refusalRetryDelayMs = (attempts: number): number => Math.min(15, 2 ** Math.max(0, attempts - 1)) * 60_000;

export interface Isolation<T, V> {
  embedded: { item: T; vector: V }[];
  /** items the model refused on their own */
  refused: { item: T; error: unknown }[];
  /** items left untried because `stop` ended the work (a wait, or the AI service unavailable) */
  untried: T[];
  stop?: unknown;
  /** model requests answered (with vectors, or a refusal) */
  requests: number;
}

/**
 * Embeds the items in one request; when the model refuses it, halves it and tries each half, down to single
 * items, so a poison text costs about 2·log2(96) ≈ 14 requests and every other item is still embedded. Any other
 * failure stops the bisection: what was embedded stays, the rest is untried.
 */
export const embedIsolating = async <T, V>(
  items: readonly T[],
  embed: (group: T[]) => Promise<V[]>,
  isRefused: (error: unknown) => boolean = isRefusedInput,
): Promise<Isolation<T, V>> => {
  const result: Isolation<T, V> = { embedded: [], refused: [], untried: [], requests: 0 };
  const groups: T[][] = items.length > 0 ? [[...items]] : [];
  while (groups.length > 0) {
    const group = groups.shift()!;
    try {
      const vectors = await embed(group);
      result.requests++;
      group.forEach((item, i) => result.embedded.push({ item, vector: vectors[i]! }));
    } catch (error) {
      if (!isRefused(error)) {
        result.stop = error;
        result.untried.push(...group, ...groups.flat());
        return result;
      }
      result.requests++;
      if (group.length === 1) result.refused.push({ item: group[0]!, error });
      else {
        const half = Math.ceil(group.length / 2);
        groups.unshift(group.slice(0, half), group.slice(half));
      }
    }
  }
  return result;
};

/** What one run did. The sweeper's report counts sources as these do (report.ts). */
export interface WorkTally {
  /** sources marked embedded (their last chunk stored, or a text with no chunk) */
  embedded: number;
  /** chunks given their vectors: by the model, or copied from their representative */
  chunks: number;
  /** model requests answered */
  requests: number;
  /** sources the model refused a chunk of, or whose text could not be extracted: status error */
  failed: number;
  /** of those, sources that reached the attempt cap */
  gave_up: number;
  /** sources left pending: their file is not uploaded or extracted yet */
  skipped: number;
  /** status rows whose source no longer exists, deleted */
  removed: number;
  /** sources set to wait again after a change of model */
  reset: number;
}

const emptyTally = (): WorkTally => ({ embedded: 0, chunks: 0, requests: 0, failed: 0, gave_up: 0, skipped: 0, removed: 0, reset: 0 });

export interface WorkOutcome extends WorkTally {
  stopped_by: StoppedBy;
  /** chunks still waiting after the run (not of a source given up), leased or not */
  waiting: number;
  /**
   * when the work left can go on: at once (the budget or request limit ended the run), the quota's retryAt, when
   * leased or deferred chunks come free, or later when the AI service was unavailable; null when nothing waits
   */
  next_at: Date | null;
}

export interface WorkOptions {
  embedder: Embedder;
  timeBudgetMs: number;
  /** the clock for the budget and quota waits (default: the system clock) */
  now?: () => Date;
  /** how the work waits for a full quota's retryAt (default: a timer; must advance `now` by the time slept) */
  sleep?: (ms: number) => Promise<void>;
  maxAttempts?: number;
  /** model requests a run makes at most (default: no limit but the budget) */
  maxRequests?: number;
  leaseMs?: number;
  requestsPerClaim?: number;
  /** partial requests wait for more of a streaming investigation's chunks (default: none wait) */
  linger?: StreamLinger;
  /** investigations whose writer said it wrote all it will (a seed, an import's end): their partial requests do not wait */
  doneWriting?: readonly string[];
  /** the sweeper's backstop at the end: every duplicate lacking its representative's vector, every source left unsettled */
  backstop?: boolean;
}

type ClaimEnd =
  | { kind: 'done' }
  | { kind: 'stop'; stoppedBy: StoppedBy }
  | { kind: 'wait'; until: Date }
  | { kind: 'unavailable'; error: unknown };

// ---- the run ---------------------------------------------------------------------------------

export const embedWaitingChunks = async (db: Kysely<Database>, options: WorkOptions): Promise<WorkOutcome> => {
  const { embedder } = options;
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxAttempts = options.maxAttempts ?? EMBEDDING_MAX_ATTEMPTS;
  const leaseMs = options.leaseMs ?? EMBEDDING_WORK.leaseMs;
  const perClaim = (options.requestsPerClaim ?? EMBEDDING_WORK.requestsPerClaim) * EMBEDDING_WORK.batchSize;
  const deadline = now().getTime() + options.timeBudgetMs;
  const tally = emptyTally();
  const outOfTime = () => now().getTime() >= deadline;
  const atRequestLimit = () => options.maxRequests !== undefined && tally.requests >= options.maxRequests;

  // 1. rows written without chunks
  const looked: string[] = [];
  while (!outOfTime()) {
    const done = await materializeSources(db, { maxAttempts, limit: EMBEDDING_WORK.materializeBatch, exclude: looked });
    if (done.handled.length === 0) break;
    looked.push(...done.handled);
    tally.embedded += done.embeddedAtOnce;
    tally.removed += done.removed;
    tally.skipped += done.notReady.length;
    tally.failed += done.failed.length;
    tally.gave_up += done.failed.filter((f) => gaveUp(f.attempts, maxAttempts)).length;
  }

  // 2. another model's vectors wait again
  const reset = await resetOtherModel(db, embedder.model, EMBEDDING_WORK.resetBatch);
  await markPending(db, reset);
  tally.reset += reset.length;
  if (reset.length > 0)
    logger.info('embedding: vectors of another model set to be embedded again', { model: embedder.model, sources: reset.length });

  /**
   * One request's vectors for these chunks, as pgvector literals. A wrong count or size is the model's configuration,
   * not the texts' fault: EmbeddingModelError, which stops the work rather than blaming a text.
   */
  const embedChunks = async (chunks: ClaimedChunk[], organizationId: string): Promise<string[]> => {
    const vectors = await embedder.embed(
      chunks.map((c) => c.text),
      organizationId,
    );
    if (vectors.length !== chunks.length) throw new EmbeddingModelError(`${vectors.length} vectors answered for ${chunks.length} texts`);
    try {
      return vectors.map((v) => toVectorLiteral(v));
    } catch (error) {
      throw new EmbeddingModelError(errorMessageOf(error));
    }
  };

  /** stores what a request embedded, blames the refused chunks' sources, settles the sources touched */
  const record = async (claim: ChunkClaim, lease: Date, isolation: Isolation<ClaimedChunk, string>): Promise<void> => {
    const vectors = isolation.embedded.map((e) => ({ id: e.item.id, embedding: e.vector }));
    const stored = await storeVectors(db, { lease, model: embedder.model, vectors });
    const copies = await fillDuplicates(db, { representatives: stored.map((s) => s.id) });
    tally.chunks += stored.length + copies.length;
    if (stored.length < vectors.length)
      logger.warn('embedding: chunks whose lease was lost (claimed again, or rewritten) were not stored', {
        lost: vectors.length - stored.length,
      });

    if (isolation.refused.length > 0) {
      const bySource = new Map<string, { chunkIds: string[]; message: string }>();
      for (const { item, error } of isolation.refused) {
        const entry = bySource.get(item.embedding_source_id) ?? { chunkIds: [], message: errorMessageOf(error) };
        entry.chunkIds.push(item.id);
        bySource.set(item.embedding_source_id, entry);
      }
      const recorded = await recordRefusals(
        db,
        [...bySource].map(([sourceId, entry]) => ({ sourceId, ...entry })),
      );
      for (const { sourceId, attempts } of recorded) {
        await deferChunks(db, bySource.get(sourceId)!.chunkIds, lease, refusalRetryDelayMs(attempts));
        tally.failed++;
        if (gaveUp(attempts, maxAttempts)) tally.gave_up++;
      }
      logger.warn('embedding: the model refused chunks; their sources are in error', {
        investigationId: claim.investigation_id,
        refused: isolation.refused.length,
        sources: recorded,
      });
    }
    const settled = await settleSources(
      db,
      [...stored, ...copies].map((s) => s.embedding_source_id),
    );
    tally.embedded += settled.length;
  };

  const workClaim = async (claim: ChunkClaim): Promise<ClaimEnd> => {
    let lease = claim.lease;
    let left = claim.chunks;
    for (let first = true; left.length > 0; first = false) {
      const end: ClaimEnd | undefined = outOfTime()
        ? { kind: 'stop', stoppedBy: 'time_budget' }
        : atRequestLimit()
          ? { kind: 'stop', stoppedBy: 'batch_limit' }
          : undefined;
      if (end) {
        await releaseChunks(
          db,
          left.map((c) => c.id),
          lease,
        );
        return end;
      }
      if (!first) {
        const renewed = await renewLease(
          db,
          left.map((c) => c.id),
          lease,
          leaseMs,
        );
        lease = renewed.lease;
        left = left.filter((c) => renewed.held.has(c.id));
        if (left.length === 0) break;
      }
      const batch = left.slice(0, EMBEDDING_WORK.batchSize);
      left = left.slice(batch.length);
      const isolation = await embedIsolating(batch, (group) => embedChunks(group, claim.organization_id));
      tally.requests += isolation.requests;
      await record(claim, lease, isolation);
      if (isolation.stop !== undefined) {
        await releaseChunks(
          db,
          [...isolation.untried, ...left].map((c) => c.id),
          lease,
        );
        const retryAt = quotaRetryAt(isolation.stop);
        return retryAt ? { kind: 'wait', until: retryAt } : { kind: 'unavailable', error: isolation.stop };
      }
    }
    return { kind: 'done' };
  };

  // 3. claims, one investigation at a time, taking turns between organizations
  let served: string[] = [];
  let stoppedBy: StoppedBy = 'done';
  let nextAt: Date | null = null;
  /** investigations whose partial request waits for more chunks, and when the first of them is due */
  const lingering: string[] = [];
  let lingerUntil: Date | null = null;
  for (;;) {
    if (outOfTime()) {
      stoppedBy = 'time_budget';
      break;
    }
    if (atRequestLimit()) {
      stoppedBy = 'batch_limit';
      break;
    }
    const claim = await claimChunks(db, { limit: perClaim, leaseMs, maxAttempts, served, skip: lingering });
    if (!claim) break;
    const linger = options.doneWriting?.includes(claim.investigation_id) ? undefined : options.linger;
    const sendNow = chunksToSendNow(claim.agesMs, EMBEDDING_WORK.batchSize, linger);
    if (sendNow.retryInMs !== undefined) {
      await releaseChunks(
        db,
        claim.chunks.slice(sendNow.count).map((c) => c.id),
        claim.lease,
      );
      lingering.push(claim.investigation_id);
      const due = new Date(now().getTime() + sendNow.retryInMs);
      if (lingerUntil === null || due < lingerUntil) lingerUntil = due;
      if (sendNow.count === 0) continue;
    }
    served = [...served.filter((o) => o !== claim.organization_id), claim.organization_id];
    const end = await workClaim({ ...claim, chunks: claim.chunks.slice(0, sendNow.count) });
    if (end.kind === 'done') continue;
    if (end.kind === 'wait') {
      // the quota has room again at `until`: wait for it inside the budget, else say when to come back
      if (end.until.getTime() < deadline) {
        await sleep(Math.max(0, end.until.getTime() - now().getTime()));
        continue;
      }
      stoppedBy = 'time_budget';
      nextAt = end.until;
      break;
    }
    if (end.kind === 'unavailable') {
      logger.error('embedding stopped: the AI service is unavailable or the model misconfigured; no text is blamed', {
        error: end.error as Error,
      });
      stoppedBy = 'ai_unavailable';
      nextAt = new Date(now().getTime() + EMBEDDING_WORK.unavailableRetryMs);
      break;
    }
    stoppedBy = end.stoppedBy;
    break;
  }

  if (options.backstop) tally.chunks += (await fillDuplicates(db)).length;
  // with nothing left to claim, every source none of whose chunks waits is settled: a worker killed between a store
  // and its settle leaves its sources pending, and nothing else would settle them before the hourly sweep
  if (options.backstop || stoppedBy === 'done') tally.embedded += (await settleSources(db)).length;

  // 4. with nothing left to embed and no vector stored for a while, the stored vectors go into the HNSW graph
  // (retrieval finds them exactly until then); while vectors are still being stored, the worker comes back for it
  const indexing = stoppedBy === 'done' ? await indexingState(db, EMBEDDING_WORK.indexQuietMs) : undefined;
  const indexAt = indexing?.waiting && indexing.busy ? indexing.quiet_at : null;
  if (indexing?.waiting && !indexing.busy) {
    let indexed = 0;
    while (!outOfTime()) {
      const slice = await placeStoredVectors(db, EMBEDDING_WORK.indexBatch);
      if (slice === 0) break;
      indexed += slice;
    }
    if (indexed > 0) logger.info('embedding: stored vectors put into the index', { indexed });
    if (outOfTime()) nextAt ??= now();
  }
  const left = await waitingWork(db, maxAttempts);
  // the budget or the request limit ended the run: go on at once
  if (nextAt === null && stoppedBy !== 'done') nextAt = now();
  // partial requests wait for more chunks: back when the first is due (new chunks wake the worker sooner)
  if (lingerUntil && (nextAt === null || lingerUntil < nextAt)) nextAt = lingerUntil;
  // nothing more could be claimed, yet chunks wait: leased by another worker, or deferred after a refusal
  if (nextAt === null && left.chunks > 0) nextAt = left.nextFreeAt ?? new Date(now().getTime() + EMBEDDING_WORK.raceRetryMs);
  // the graph's turn, unless the work comes back sooner anyway
  if (indexAt && (nextAt === null || indexAt < nextAt)) nextAt = indexAt;
  return { ...tally, stopped_by: stoppedBy, waiting: left.chunks, next_at: nextAt };
};
