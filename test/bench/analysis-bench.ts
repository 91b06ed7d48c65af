/**
 * Analysis benches for `npm run bench` (sections `assess` and `retrieval`); prints figures, asserts nothing.
 *
 * - assess: POST /api/analysis/assess latency through the twin's HTTP gateway (real investigator token,
 *   JWT verification, the rate limiter's upsert, the one statement of selection and counts) with 100,000
 *   evidence items in one investigation, on embedded PGlite and, when BENCH_DATABASE_URL is set, on real
 *   PostgreSQL; then each statement alone, and the counting as it was before migration 0013 beside it.
 * - retrieval: recall@20 (against the exact top 20 of the same filter) and latency of the retrieval strategies
 *   side by side — exact scan, HNSW settings, halfvec / binary-quantized indexes with exact re-rank, the
 *   service's rule — on a topical and a clustered near-duplicate corpus, in one investigation and over 500 (see retrievalBench).
 *
 * Real PostgreSQL: BENCH_DATABASE_URL points at a server with pgvector; each engine run creates a
 * scratch database there and drops it afterwards. `bash scripts/ci/postgres.sh start` prints such a URL.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { assessSelection } from '#core/analysis/assess';
import { resolveSelection } from '#core/analysis/selection';
import { countHit } from '#core/ratelimit/limiter';
import { nearestQuery, PATH_SETTINGS, RETRIEVAL, retrievalPath, searchChunks } from '#core/analysis/retrieval';
import { setForTransaction } from '#core/db/transaction-state';
import { openDatabase, type DatabaseHandle } from '#core/db/connection';
import { migrateToLatest } from '#core/db/migrate';
import type { Database } from '#core/db/schema';
import { DEFAULT_AI_MODELS } from '#core/config';
import { placeStoredVectors } from '#core/embeddings/chunk-claims';
import { lshBands, representativeFor, shinglesOf, type GroupCandidate } from '#core/embeddings/near-duplicates';
import { embedText } from '../../lib/twin/bedrock/text';
import { figure } from './summary';
import { startTwin } from '../../lib/twin/twin';
import { seededRandom } from '../support/random';
import {
  ENGINE_NAMES,
  flagNumber,
  flagValue,
  httpClient,
  log,
  mean,
  quantile,
  realPostgresUrl,
  seconds,
  skipRealPostgres,
  stats,
  timed,
  withScratchDatabase,
  type Engine,
} from './bench-support';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const ASSESS = {
  evidence: env('BENCH_ASSESS_EVIDENCE', 100_000),
  /** a second investigation in the same organization, so the counts have rows to skip */
  otherEvidence: 20_000,
  questions: 10,
  requests: env('BENCH_ASSESS_REQUESTS', 300),
  warmup: 20,
};

// ---------------------------------------------------------------------------------------------------
// assess

interface AssessFixture {
  organizationId: string;
  investigationId: string;
  questionId: string;
  linked: number;
}

/** One investigation with ASSESS.evidence items, question links, attachments and background documents: set-based SQL, no per-row round trips. */
const loadAssessFixture = async (db: Kysely<Database>): Promise<AssessFixture> => {
  const organizationId = randomUUID();
  const investigationId = randomUUID();
  const otherInvestigationId = randomUUID();
  const run = (statement: ReturnType<typeof sql>) => statement.execute(db);
  await run(sql`insert into organizations (id, name) values (${organizationId}, 'Bench organization')`);
  await run(sql`insert into investigations (id, organization_id, title) values
    (${investigationId}, ${organizationId}, 'Bench: 100k evidence items'), (${otherInvestigationId}, ${organizationId}, 'Bench: other investigation')`);
  await run(sql`insert into questions (investigation_id, text, position)
    select ${investigationId}, 'Bench question ' || g, g from generate_series(1, ${ASSESS.questions}) g`);
  for (const [investigation, count] of [
    [investigationId, ASSESS.evidence],
    [otherInvestigationId, ASSESS.otherEvidence],
  ] as const) {
    const [, ms] = await timed(() =>
      run(sql`insert into evidence_items (investigation_id, title, content, collected_at)
      select ${investigation}, 'Evidence item ' || g,
             case when g % 10 = 0 then '  ' else 'Statement ' || g || ': the invoice was approved by the vendor manager on ' || (date '2025-01-01' + (g % 365)) end,
             timestamptz '2025-01-01' + (g % 365) * interval '1 day'
      from generate_series(1, ${count}) g`),
    );
    log(`${count.toLocaleString('en')} evidence items inserted in ${seconds(ms)}`);
  }
  // links: ~1% of the evidence per question (the first question is the one assessed)
  const [, linkMs] = await timed(() =>
    run(sql`insert into evidence_question_links (evidence_item_id, question_id)
    select e.id, q.id from evidence_items e cross join questions q
    where e.investigation_id = ${investigationId} and q.investigation_id = ${investigationId} and random() < 0.01`),
  );
  // attachments on ~25% of the evidence items (both investigations), their text extracted (a settled matter's)
  const [, attachmentMs] = await timed(() =>
    run(sql`insert into attachments (evidence_item_id, file_name, content_type, size_bytes, storage_key, extracted_text, extraction_status)
    select id, 'scan.pdf', 'application/pdf', 120000, 'bench/' || id || '/scan.pdf', 'scanned text', 'extracted'
    from evidence_items where random() < 0.25`),
  );
  await run(sql`insert into background_documents (investigation_id, title, file_name, content_type, size_bytes, storage_key, extraction_status, included_for_ai)
    select ${investigationId}, 'Policy ' || g, 'policy-' || g || '.pdf', 'application/pdf', 50000, 'bench/background/' || gen_random_uuid() || '.pdf', 'extracted', g % 3 <> 0
    from generate_series(1, 30) g`);
  await run(sql`analyze`);
  const question = await db
    .selectFrom('questions')
    .select('id')
    .where('investigation_id', '=', investigationId)
    .orderBy('position')
    .executeTakeFirstOrThrow();
  const { linked } = await db
    .selectFrom('evidence_question_links')
    .select(sql<number>`count(*)::int`.as('linked'))
    .where('question_id', '=', question.id)
    .executeTakeFirstOrThrow();
  log(`links and attachments inserted in ${seconds(linkMs + attachmentMs)}; ${linked} items linked to the assessed question`);
  return { organizationId, investigationId, questionId: question.id, linked };
};

/**
 * The counts as they were read before migration 0013, for comparison in the same run: the question's links
 * joined to their evidence items (a scan of the investigation's evidence) and the background documents
 * counted, then the selection as a statement of its own.
 */
const countedOnRead = async (db: Kysely<Database>, fixture: AssessFixture) => {
  await sql`select (select count(*) from evidence_question_links l join evidence_items e on e.id = l.evidence_item_id
                    where l.question_id = ${fixture.questionId} and e.investigation_id = ${fixture.investigationId}) as linked,
                   (select count(*) from background_documents where investigation_id = ${fixture.investigationId}) as background,
                   (select count(*) filter (where included_for_ai) from background_documents where investigation_id = ${fixture.investigationId}) as included`.execute(
    db,
  );
  await resolveSelection(db, fixture.organizationId, {
    investigation_id: fixture.investigationId,
    analysis_type: 'question',
    question_id: fixture.questionId,
  });
};

const STEP_NOTES: Record<string, string> = {
  'rate limit': "the limiter's upsert alone (every request's first statement)",
  'assess statement': 'assessSelection alone: the selection, its counts and what of the evidence is unfinished, in one statement',
  'counted on read': 'before migration 0013, for comparison: links and background documents counted, selection apart',
};

const assessOn = async (engine: Engine, databaseUrl?: string) => {
  const twinDir = mkdtempSync(join(tmpdir(), `ias-bench-assess-${engine}-`));
  try {
    log(`${engine}: starting the twin (seed off, schedules off)`);
    // the stage's throttle (25 requests/s on an investigator write route, shared by every caller) would refuse
    // a sequential loop faster than 40 ms a request: it measures API Gateway's bucket, not the route
    const twin = await startTwin({
      port: 0,
      twinDir,
      seed: false,
      schedules: false,
      context: { gatewayThrottles: 'off' },
      ...(databaseUrl && { databaseUrl }),
    });
    try {
      const [fixture, loadMs] = await timed(() => loadAssessFixture(twin.database.db));
      log(`${engine}: fixture loaded in ${seconds(loadMs)}`);
      const token = await twin.token({
        subject: 'bench-investigator',
        email: 'bench@example.com',
        role: 'investigator',
        organizationId: fixture.organizationId,
      });
      const body = JSON.stringify({
        investigation_id: fixture.investigationId,
        analysis_type: 'question',
        question_id: fixture.questionId,
      });
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      let last: unknown;
      const client = httpClient();
      const request = async () => {
        const response = await client(`${twin.url}/api/analysis/assess`, { method: 'POST', headers, body });
        last = JSON.parse(response.body);
        if (response.status !== 200) throw new Error(`assess answered ${response.status}: ${JSON.stringify(last)}`);
      };
      for (let i = 0; i < ASSESS.warmup; i++) await request();
      const http: number[] = [];
      for (let i = 0; i < ASSESS.requests; i++) http.push((await timed(request))[1]);
      // the same requests as Lambda's Duration: the handler's share of each, the rest is the gateway's and the client's
      const handler = twin
        .invocations('analysis-assess')
        .slice(-ASSESS.requests)
        .map((invocation) => invocation.durationMs);
      // the route's own steps, each alone: the rate limiter's upsert, then the one statement of selection and counts
      const db = twin.database.db;
      const selection = { investigation_id: fixture.investigationId, analysis_type: 'question' as const, question_id: fixture.questionId };
      const steps: Record<string, number[]> = { 'rate limit': [], 'assess statement': [], 'counted on read': [] };
      for (let i = 0; i < ASSESS.requests; i++) {
        steps['rate limit']!.push((await timed(() => countHit(db, `bench:${i % 7}`, 60)))[1]);
        steps['assess statement']!.push((await timed(() => assessSelection(db, fixture.organizationId, selection)))[1]);
        steps['counted on read']!.push((await timed(() => countedOnRead(db, fixture)))[1]);
      }
      const a = last as {
        total_evidence: number;
        linked_evidence: number;
        source_breakdown: { content: number; attachments: number; background_docs: number };
        evidence_ready: { ready: number; total: number };
      };
      return {
        engine,
        http,
        handler,
        steps,
        answer: `total ${a.total_evidence}, linked ${a.linked_evidence}, content ${a.source_breakdown.content}, attachments ${a.source_breakdown.attachments}, background ${a.source_breakdown.background_docs}, ready ${a.evidence_ready.ready}`,
      };
    } finally {
      await twin.stop();
    }
  } finally {
    rmSync(twinDir, { recursive: true, force: true });
  }
};

/** issue 17: the evidence check's p99 through HTTP at 100k evidence items */
const ASSESS_P99_GOALS = { postgres: { atMost: 10 }, pglite: { atMost: 25 } } as const;

export const assessBench = async () => {
  console.log(
    `\nAssess latency (POST /api/analysis/assess through the twin's HTTP gateway, question analysis, ${ASSESS.evidence.toLocaleString('en')} evidence items in one investigation; ${ASSESS.requests} sequential requests after ${ASSESS.warmup} warm-up):`,
  );
  const results = [await assessOn('pglite')];
  const serverUrl = realPostgresUrl();
  if (serverUrl) results.push(await withScratchDatabase(serverUrl, (url) => assessOn('postgres', url)));
  for (const r of results) {
    console.log(`  ${r.engine.padEnd(8)} ${'HTTP'.padEnd(16)} ${stats(r.http)}`);
    console.log(
      `  ${''.padEnd(8)} ${'function'.padEnd(16)} ${stats(r.handler)}   the same requests' Lambda Duration (rate limit, auth, body, statements)`,
    );
    for (const [step, samples] of Object.entries(r.steps))
      console.log(`  ${''.padEnd(8)} ${step.padEnd(16)} ${stats(samples)}   ${STEP_NOTES[step]}`);
    console.log(`  ${''.padEnd(8)} ${'answer'.padEnd(16)} ${r.answer}`);
    const engine = ENGINE_NAMES[r.engine];
    const how = `${ASSESS.requests} sequential requests, ${ASSESS.evidence.toLocaleString('en')} evidence items`;
    figure('assess', { name: 'assess p50 through HTTP', value: quantile(r.http, 0.5), unit: 'ms', engine, note: how });
    figure('assess', {
      name: 'assess p99 through HTTP',
      value: quantile(r.http, 0.99),
      unit: 'ms',
      engine,
      goal: ASSESS_P99_GOALS[r.engine],
      note: how,
    });
    figure('assess', {
      name: 'assess p99 in the function (Lambda Duration)',
      value: quantile(r.handler, 0.99),
      unit: 'ms',
      engine,
      note: how,
    });
  }
  if (!serverUrl) skipRealPostgres('assess on PostgreSQL');
  console.log('  spec limit: under 100 ms; issue 17: p99 ≤ 10 ms through HTTP on PostgreSQL, ≤ 25 ms on PGlite');
};

// ---------------------------------------------------------------------------------------------------
// retrieval

/**
 * Retrieval recall and latency, strategies side by side (issue 17). Figures per engine × corpus × layout:
 * - corpora: `topical` (chunks about one of 2,000 topics, as before) and `clustered` (clusters of ~100
 *   near-duplicates of one text each: HNSW's hard case, many candidates almost equally near);
 * - layouts: `single` (every chunk in one investigation) and `spread` (the same chunks over 500
 *   investigations; each query filters to one: the filter case);
 * - strategies: exact scan, HNSW at several ef_search / iterative-scan settings, halfvec and binary-quantized
 *   HNSW expression indexes with an exact re-rank of a larger candidate set, and the service's rule (exact when
 *   the investigation holds fewer than `--exact-below` chunks, else HNSW) — each with recall@20 mean and min
 *   against the exact top 20 of the same filter, and latency p50/p99 (one transaction per query, settings
 *   included, as the service runs it).
 *
 * Flags (`npm run bench -- retrieval --chunks 20000`): --chunks N (both engines), --pglite-chunks N,
 * --postgres-chunks N, --engine pglite|postgres, --corpus topical|clustered, --layout single|spread,
 * --queries N, --exact-below N, --indexes m16,m32,halfvec,bit (which HNSW indexes to build; strategies on the
 * others are left out: PGlite builds the halfvec index slowly), --m32-ef-construction N (the service's index is
 * built at 256, migration 0012; at 128 a near-duplicate cluster can be unreachable, recall min 0.00 at 100k).
 * The rule row runs the service's own searchChunks (layers/core/analysis/retrieval.ts) on the service's index.
 * Real PostgreSQL needs BENCH_DATABASE_URL.
 */
/** the embedding model the bench's chunks are recorded with (retrieval searches one model's vectors) */
const BENCH_MODEL = DEFAULT_AI_MODELS.embedding;

const RETRIEVAL_BENCH = {
  chunks: { pglite: env('BENCH_RETRIEVAL_CHUNKS_PGLITE', 20_000), postgres: env('BENCH_RETRIEVAL_CHUNKS_POSTGRES', 100_000) },
  investigations: 500,
  clusterSize: 100,
  /** copies of one passage in the forwarded corpus (the issue's "20 copies of one passage") */
  forwardCopies: 20,
  batch: 1_000,
  queries: 50,
  warmup: 10,
  k: 20,
  dimensions: 1024,
  /** the rule's threshold (the service's RETRIEVAL.exactBelow unless --exact-below) */
  exactBelow: RETRIEVAL.exactBelow,
  /** filtered counts at which exact latency is measured (single layout), for the threshold */
  exactCurve: [1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000],
  exactCurveQueries: 10,
  maintenanceWorkMem: { pglite: '1GB', postgres: '1GB' },
};

type CorpusName = 'topical' | 'clustered' | 'forwarded';
type Layout = 'single' | 'spread';

interface Generated {
  text: string;
  /** the investigation (0 … investigations-1) this chunk or query belongs to in the spread layout */
  home: number;
}

/**
 * Synthetic corpora embedded with the twin's feature-hashing embedder (similar texts are near each other).
 * Uniform random vectors, by contrast, are HNSW's pathological case: every neighbour is almost as far as any other.
 * - topical: each chunk is about one of many topics (words half from its topic's vocabulary, half from a
 *   Zipf-distributed common vocabulary); queries are short texts about a random topic; in the spread layout
 *   chunks and queries go to random investigations (the query's nearest chunks are mostly elsewhere).
 * - clustered: chunks/clusterSize base texts, each chunk a near-duplicate of one (5% of words replaced);
 *   queries are 8–14 words of a base text; in the spread layout a cluster lives in one investigation
 *   (versions of a document), and a query filters to its cluster's investigation.
 * - forwarded: chunks/forwardCopies passages, each in forwardCopies chunks as e-mails carry it (forwards, quotes,
 *   replies): a copy is the passage itself, half the time with one word changed and some with a quote marker, so
 *   the service's near-duplicate rule groups them; queries are 8–14 words of a passage.
 */
const corpus = (name: CorpusName, chunks: number, seed: number) => {
  const next = seededRandom(seed);
  const place = seededRandom(seed ^ 0x5bd1e995); // investigation placement, independent of the texts
  const TOPICS = 2_000;
  const common = (r: () => number) => `w${Math.floor(Math.pow(5_000, r()))}`; // Zipf-like: small indexes are frequent
  const topical = (r: () => number, topic: number) => `t${topic}x${Math.floor(r() * 25)}`;
  const words = (r: () => number, topic: number, count: number) =>
    Array.from({ length: count }, () => (r() < 0.5 ? topical(r, topic) : common(r)));
  const investigations = RETRIEVAL_BENCH.investigations;
  if (name === 'topical') {
    return {
      chunk: (): Generated => ({
        text: words(next, Math.floor(next() * TOPICS), 60 + Math.floor(next() * 60)).join(' '),
        home: Math.floor(place() * investigations),
      }),
      query: (): Generated => ({
        text: words(next, Math.floor(next() * TOPICS), 8 + Math.floor(next() * 6)).join(' '),
        home: Math.floor(place() * investigations),
      }),
    };
  }
  const clusters = Math.max(1, Math.round(chunks / (name === 'forwarded' ? RETRIEVAL_BENCH.forwardCopies : RETRIEVAL_BENCH.clusterSize)));
  const bases = new Map<number, string[]>();
  const base = (cluster: number) => {
    let text = bases.get(cluster);
    if (!text) {
      const r = seededRandom(seed + Math.imul(cluster + 1, 0x9e3779b1));
      text = words(r, cluster % TOPICS, 60 + Math.floor(r() * 60));
      bases.set(cluster, text);
    }
    return text;
  };
  return {
    chunk: (): Generated => {
      const cluster = Math.floor(next() * clusters);
      const passage = base(cluster);
      if (name === 'forwarded') {
        const changed = next() < 0.5 ? Math.floor(next() * passage.length) : -1;
        const copy = passage.map((word, i) => (i === changed ? common(next) : word)).join(' ');
        return { text: next() < 0.3 ? `> ${copy}` : copy, home: cluster % investigations };
      }
      return {
        text: passage.map((word) => (next() < 0.05 ? common(next) : word)).join(' '),
        home: cluster % investigations,
      };
    },
    query: (): Generated => {
      const cluster = Math.floor(next() * clusters);
      const text = base(cluster);
      const start = Math.floor(next() * (text.length - 14));
      return { text: text.slice(start, start + 8 + Math.floor(next() * 6)).join(' '), home: cluster % investigations };
    },
  };
};

const embed = (text: string) => embedText(text, RETRIEVAL_BENCH.dimensions);
const vectorLiteral = (vector: number[]) => `[${vector.map((x) => (x === 0 ? '0' : x.toPrecision(6))).join(',')}]`;

interface BenchIds {
  investigations: string[];
  sources: string[];
  evidenceItems: string[];
}

/** One organization, 500 investigations, each with an evidence item and its embedding source (the chunks' parents). */
const setUpInvestigations = async (db: Kysely<Database>): Promise<BenchIds> => {
  const organizationId = randomUUID();
  await sql`insert into organizations (id, name) values (${organizationId}, 'Bench organization')`.execute(db);
  const ids: BenchIds = { investigations: [], sources: [], evidenceItems: [] };
  for (let i = 0; i < RETRIEVAL_BENCH.investigations; i++) {
    ids.investigations.push(randomUUID());
    ids.sources.push(randomUUID());
    ids.evidenceItems.push(randomUUID());
  }
  await db
    .insertInto('investigations')
    .values(ids.investigations.map((id, i) => ({ id, organization_id: organizationId, title: `Bench: retrieval ${i}` })))
    .execute();
  await db
    .insertInto('evidence_items')
    .values(ids.evidenceItems.map((id, i) => ({ id, investigation_id: ids.investigations[i]!, title: 'Bench source', content: 'text' })))
    .execute();
  await db
    .insertInto('embedding_sources')
    .values(
      ids.sources.map((id, i) => ({
        id,
        investigation_id: ids.investigations[i]!,
        source_type: 'content' as const,
        source_id: ids.evidenceItems[i]!,
        status: 'embedded' as const,
      })),
    )
    .execute();
  return ids;
};

/**
 * m32 is the service's own index, text_chunks_embedding_idx as migration 0012 builds it (m 32, ef_construction
 * 256: its definition is read back after the migrations, then the index is dropped for the bulk load and built
 * again). The others sit beside it on expressions the query names: m16 is pgvector's default graph (16 / 64), the
 * service's index before the rule, on an equivalent expression (cosine distance is scale-free).
 */
const INDEXES = {
  m16: 'create index bench_chunks_m16_idx on text_chunks using hnsw ((l2_normalize(embedding)::vector(1024)) vector_cosine_ops)',
  halfvec: `create index bench_chunks_halfvec_idx on text_chunks using hnsw ((embedding::halfvec(${RETRIEVAL_BENCH.dimensions})) halfvec_cosine_ops)`,
  bit: `create index bench_chunks_bit_idx on text_chunks using hnsw ((binary_quantize(embedding)::bit(${RETRIEVAL_BENCH.dimensions})) bit_hamming_ops)`,
  m32: 'the service index (read from pg_indexes)',
} as const;

interface Found {
  ids: string[];
  /** exact cosine distances of the found chunks, nearest first */
  distances: number[];
}

/** distance slack of a tie: a found chunk within this of the true k-th distance counts (as ANN benchmarks count) */
const TIE_SLACK = 1e-3;

/**
 * Recall@k of `found` against the exact top k, read two ways. Tie-aware, as ANN benchmarks read it: a found chunk
 * counts when its distance is within TIE_SLACK of the true k-th (near-duplicates tie, and any of them is as good).
 * Strict: the share of the exact top k's own ids found.
 */
const recallOf = (found: Found, exact: Found) => {
  const wanted = Math.max(1, exact.ids.length);
  const bound = (exact.distances[exact.distances.length - 1] ?? 0) + TIE_SLACK;
  const tieAware = Math.min(found.distances.filter((distance) => distance <= bound).length, exact.ids.length) / wanted;
  const ids = new Set(found.ids);
  return { tieAware, strict: exact.ids.filter((id) => ids.has(id)).length / wanted };
};

interface Strategy {
  label: string;
  /** the settings in force for the query (setForTransaction) */
  settings: Readonly<Record<string, string>>;
  query: (investigationId: string, vector: string) => ReturnType<typeof sql<{ id: string; distance: number }>>;
  /** the service's own searchChunks (the rule, decided per query by the investigation's chunk count) rather than the bench's SQL */
  rule?: boolean;
  /** the index it uses: measured only when that index was built */
  needs?: keyof typeof INDEXES;
}

const k = RETRIEVAL_BENCH.k;
const d = RETRIEVAL_BENCH.dimensions;
/**
 * The service's filter (layers/core/analysis/retrieval.ts): the investigation's chunks with an embedding, background
 * documents excluded from the AI left out, near-duplicates counted once; through the service's graph (m32), its nodes
 * only (its partial index holds no others: the chunks placed behind them are the rule's to expand).
 */
const filtered = (investigationId: string, graph?: 'm32' | 'm16') =>
  sql`from text_chunks c left join background_documents b on b.id = c.background_document_id
      where c.investigation_id = ${investigationId} and c.embedding is not null and coalesce(b.included_for_ai, true)
        and c.duplicate_of is null ${graph === 'm32' ? sql`and c.indexed` : sql``}`;
/** the order by cosine distance through the service's index (on embedding) or the default graph's expression */
const byDistance = (graph: 'm32' | 'm16', vector: string) =>
  graph === 'm32'
    ? sql`c.embedding <=> ${vector}::vector`
    : sql`l2_normalize(c.embedding)::vector(${sql.raw(String(d))}) <=> ${vector}::vector`;
/**
 * the service's earlier shape: a materialized top k, re-sorted by the exact distance computed outside the CTE
 * (relaxed order returns them slightly out of order; a CTE column would let newer planners skip the re-sort)
 */
/** `graph` undefined: every representative (the exact scan) */
const vectorQuery = (graph?: 'm32' | 'm16') => (investigationId: string, vector: string) =>
  sql<{ id: string; distance: number }>`
  with nearest as materialized (
    select c.id, c.embedding ${filtered(investigationId, graph)}
    order by ${byDistance(graph ?? 'm32', vector)} limit ${k}
  ) select id, embedding <=> ${vector}::vector as distance from nearest order by distance`;
/** candidates by a quantized expression index, re-ranked by the exact distance */
const reranked = (order: 'm16' | 'm32' | 'halfvec' | 'bit', candidates: number) => (investigationId: string, vector: string) =>
  sql<{ id: string; distance: number }>`
  with candidates as materialized (
    select c.id, c.embedding ${filtered(investigationId, order === 'm32' ? 'm32' : undefined)}
    order by ${
      order === 'm16' || order === 'm32'
        ? byDistance(order, vector)
        : order === 'halfvec'
          ? sql`c.embedding::halfvec(${sql.raw(String(d))}) <=> ${vector}::halfvec(${sql.raw(String(d))})`
          : sql`binary_quantize(c.embedding)::bit(${sql.raw(String(d))}) <~> binary_quantize(${vector}::vector)`
    }
    limit ${candidates}
  ) select id, embedding <=> ${vector}::vector as distance from candidates order by distance limit ${k}`;

const EXACT_SETTINGS = PATH_SETTINGS.exact;
const hnswSettings = (ef: number, order: 'relaxed_order' | 'strict_order') => ({
  'hnsw.ef_search': String(ef),
  'hnsw.iterative_scan': order,
});
/**
 * With a limit of 200–400 the planner costs the HNSW scan above a scan + sort (even through the investigation's
 * b-tree index): forced, to measure the index itself. enable_sort off leaves the HNSW scan as the one ordered path.
 * jit off: the disabled paths' cost penalty lifts the plan's cost over jit_above_cost, and JIT compilation then
 * adds ~100 ms to every query on PostgreSQL (measured; PGlite has no JIT).
 */
const FORCED = { enable_seqscan: 'off', enable_bitmapscan: 'off', enable_sort: 'off', jit: 'off' };

const STRATEGIES: Strategy[] = [
  { label: 'exact (index scans off)', settings: EXACT_SETTINGS, query: vectorQuery() },
  {
    label: 'HNSW ef 100 relaxed (the service before the rule)',
    settings: hnswSettings(100, 'relaxed_order'),
    query: vectorQuery('m16'),
    needs: 'm16',
  },
  { label: 'HNSW ef 400 relaxed_order', settings: hnswSettings(400, 'relaxed_order'), query: vectorQuery('m16'), needs: 'm16' },
  { label: 'HNSW ef 400 strict_order', settings: hnswSettings(400, 'strict_order'), query: vectorQuery('m16'), needs: 'm16' },
  {
    label: 'HNSW ef 400 strict_order, index forced',
    settings: { ...hnswSettings(400, 'strict_order'), ...FORCED },
    query: vectorQuery('m16'),
    needs: 'm16',
  },
  { label: 'HNSW ef 1000 strict_order', settings: hnswSettings(1000, 'strict_order'), query: vectorQuery('m16'), needs: 'm16' },
  {
    label: 'HNSW ef 1000 relaxed, top 200 re-sorted (forced)',
    settings: { ...hnswSettings(1000, 'relaxed_order'), ...FORCED },
    query: reranked('m16', 200),
    needs: 'm16',
  },
  {
    label: 'HNSW m 32 ef 1000 relaxed, top 200 re-sorted (forced)',
    settings: { ...hnswSettings(1000, 'relaxed_order'), ...FORCED },
    query: reranked('m32', 200),
    needs: 'm32',
  },
  // smaller candidate sets on the service's graph: the latency levers if the rule's p99 stays above 100 ms
  ...(
    [
      [600, 200],
      [400, 200],
      [400, 100],
    ] as const
  ).map(
    ([ef, top]): Strategy => ({
      label: `HNSW m 32 ef ${ef} relaxed, top ${top} re-sorted (forced)`,
      settings: { ...hnswSettings(ef, 'relaxed_order'), ...FORCED },
      query: reranked('m32', top),
      needs: 'm32',
    }),
  ),
  {
    label: 'halfvec HNSW ef 200, re-rank 200 (forced)',
    settings: { ...hnswSettings(200, 'relaxed_order'), ...FORCED },
    query: reranked('halfvec', 200),
    needs: 'halfvec',
  },
  {
    label: 'halfvec HNSW ef 400, re-rank 400 (forced)',
    settings: { ...hnswSettings(400, 'relaxed_order'), ...FORCED },
    query: reranked('halfvec', 400),
    needs: 'halfvec',
  },
  {
    label: 'bit HNSW ef 400, re-rank 400 (forced)',
    settings: { ...hnswSettings(400, 'relaxed_order'), ...FORCED },
    query: reranked('bit', 400),
    needs: 'bit',
  },
];
/** the service's rule (searchChunks): its settings and SQL are the service's; the query here only labels the row */
const ruleStrategy = (exactBelow: number): Strategy => ({
  label: `rule: exact < ${exactBelow.toLocaleString('en')}, else HNSW m 32, top ${RETRIEVAL.indexCandidates}`,
  settings: {},
  query: vectorQuery(),
  rule: true,
  needs: 'm32',
});

const planLabel = (text: string) =>
  [
    text.includes('bench_chunks_halfvec_idx') && 'halfvec HNSW',
    text.includes('bench_chunks_bit_idx') && 'bit HNSW',
    text.includes('bench_chunks_m16_idx') && 'HNSW m 16',
    text.includes('text_chunks_embedding_idx') && 'HNSW m 32',
    text.includes('Seq Scan on text_chunks') && 'seq scan + sort',
    text.includes('Bitmap Heap Scan on text_chunks') && 'bitmap scan + sort',
  ].find(Boolean) || 'other';

interface Run {
  engine: Engine;
  corpus: CorpusName;
  layout: Layout;
  chunks: number;
  perInvestigation: number;
  loadMs: number;
  builds: Partial<Record<keyof typeof INDEXES, number>>;
  /** tie-aware recall (mean, min) and strict recall (mean, min) */
  rows: { label: string; recall: number; minRecall: number; strictRecall: number; strictMin: number; latencies: number[]; plan: string }[];
  grouped: number;
  /** the service's placement (migration 0018): graph nodes, chunks placed behind them, and its time; or every representative a node */
  placement: { nodes: number; behind: number; ms: number } | undefined;
  /** how the vectors are stored (migration 0019: in their rows), the table's sizes, and the server's shared buffers */
  storage: { mode: string; heapMb: number; toastMb: number; sharedBuffers: string };
  curve: { count: number; latencies: number[] }[];
  chosenPlan: string;
  exactBelow: number;
  m32Construction: number;
}

const retrievalRun = async (
  engine: Engine,
  db: Kysely<Database>,
  ids: BenchIds,
  name: CorpusName,
  layout: Layout,
  chunks: number,
  options: {
    queries: number;
    exactBelow: number;
    indexes: string[];
    m32Construction: number;
    serviceIndex: string;
    /** the LSH keys' GIN index (placement's candidates), built after the load as the graph is */
    keysIndex: string;
    placement: boolean;
  },
): Promise<Run> => {
  const texts = corpus(name, chunks, 20261122);
  const investigationOf = (g: Generated) => (layout === 'single' ? 0 : g.home);
  for (const index of [
    'text_chunks_embedding_idx',
    'text_chunks_lsh_idx',
    'bench_chunks_halfvec_idx',
    'bench_chunks_bit_idx',
    'bench_chunks_m16_idx',
  ])
    await sql.raw(`drop index if exists ${index}`).execute(db);
  await sql`truncate text_chunks cascade`.execute(db); // retrieval_records (empty here) references it
  // Bulk load without the indexes, then build them once (pgvector's advice; far faster than row by row). Each chunk is
  // grouped as the service groups it at ingestion (near-duplicates.ts): a near-duplicate of an earlier chunk of its
  // investigation points at it and stays out of the index; its representatives are the candidates of later chunks.
  const bandIndex = new Map<string, GroupCandidate[]>();
  let grouped = 0;
  const groupOf = (inv: number, id: string, text: string): { representative?: string; bands: number[] } => {
    const shingles = shinglesOf(text);
    const bands = lshBands(shingles);
    const keys = bands.map((band) => `${inv}:${band}`);
    const candidates = [...new Set(keys.flatMap((key) => bandIndex.get(key) ?? []))];
    const representative = representativeFor({ shingles, bands }, candidates);
    if (representative) {
      grouped += 1;
      return { representative, bands };
    }
    for (const key of keys) bandIndex.set(key, [...(bandIndex.get(key) ?? []), { id, shingles, bands }]);
    return { bands };
  };
  const [, loadMs] = await timed(async () => {
    for (let from = 0; from < chunks; from += RETRIEVAL_BENCH.batch) {
      const count = Math.min(RETRIEVAL_BENCH.batch, chunks - from);
      await db
        .insertInto('text_chunks')
        .values(
          Array.from({ length: count }, (_, i) => {
            const chunk = texts.chunk();
            const inv = investigationOf(chunk);
            const id = randomUUID();
            const { representative, bands } = groupOf(inv, id, chunk.text);
            return {
              id,
              duplicate_of: representative ?? null,
              // representatives wait to be placed as the service places them (below), or all go into the graph
              indexed: representative === undefined && !options.placement,
              lsh_bands: bands,
              investigation_id: ids.investigations[inv]!,
              embedding_source_id: ids.sources[inv]!,
              source_type: 'content' as const,
              evidence_item_id: ids.evidenceItems[inv]!,
              chunk_index: from + i,
              text: chunk.text.slice(0, 200),
              token_count: 200,
              embedding: vectorLiteral(embed(chunk.text)),
              embedding_model: BENCH_MODEL,
            };
          }),
        )
        .execute();
    }
  });
  log(
    `${engine} ${name} ${layout}: ${chunks.toLocaleString('en')} chunks inserted in ${seconds(loadMs)} (${grouped.toLocaleString('en')} near-duplicates grouped)`,
  );
  await sql.raw(options.keysIndex).execute(db);
  // placed by the service's own code before the graph is built (one insert into the m 32 graph costs 20–40 ms)
  const [, placeMs] = options.placement ? await timed(() => placeStoredVectors(db, Number.POSITIVE_INFINITY)) : [0, 0];
  const { rows: placedRows } = await sql<{ nodes: number; behind: number }>`
    select count(*) filter (where indexed)::int as nodes, count(*) filter (where graph_via is not null)::int as behind
    from text_chunks`.execute(db);
  const placement = { ...placedRows[0]!, ms: placeMs };
  const { rows: storageRows } = await sql<{ mode: string; heap: string; toast: string; shared_buffers: string }>`
    select case a.attstorage when 'p' then 'plain' when 'e' then 'external' when 'm' then 'main' else 'extended' end as mode,
           pg_relation_size(c.oid) as heap, pg_relation_size(c.reltoastrelid) as toast, current_setting('shared_buffers') as shared_buffers
    from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attname = 'embedding' where c.relname = 'text_chunks'`.execute(db);
  const stored = storageRows[0]!;
  const storage = {
    mode: stored.mode,
    heapMb: Number(stored.heap) / 2 ** 20,
    toastMb: Number(stored.toast) / 2 ** 20,
    sharedBuffers: stored.shared_buffers,
  };
  log(
    `${engine} ${name} ${layout}: ${options.placement ? `placed in ${seconds(placeMs)}` : 'every representative in the graph'}: ${placement.nodes.toLocaleString('en')} graph nodes, ${placement.behind.toLocaleString('en')} chunks behind them; building the HNSW indexes`,
  );
  const builds: Partial<Record<keyof typeof INDEXES, number>> = {};
  for (const [index, statement] of Object.entries(INDEXES) as [keyof typeof INDEXES, string][]) {
    if (!options.indexes.includes(index)) continue;
    const [, ms] = await timed(() =>
      db.transaction().execute(async (trx) => {
        await sql.raw(`set local maintenance_work_mem = '${RETRIEVAL_BENCH.maintenanceWorkMem[engine]}'`).execute(trx);
        await sql
          .raw(
            index === 'm32'
              ? options.serviceIndex.replace(/ef_construction\s*=\s*'?256'?/, `ef_construction = ${options.m32Construction}`)
              : statement,
          )
          .execute(trx);
      }),
    );
    builds[index] = ms;
    log(`${engine} ${name} ${layout}: ${index} index built in ${seconds(ms)}`);
  }
  await sql`analyze text_chunks`.execute(db);

  const queries = Array.from({ length: options.queries }, () => {
    const q = texts.query();
    return { investigationId: ids.investigations[investigationOf(q)]!, vector: embed(q.text) };
  });
  const counts = new Map<string, number>();
  const runOne = async (strategy: Strategy, investigationId: string, vector: number[]): Promise<Found> => {
    if (strategy.rule) {
      const { candidates } = await searchChunks(db, investigationId, vector, {
        model: BENCH_MODEL,
        limit: k,
        exactBelow: options.exactBelow,
      });
      return { ids: candidates.map((c) => c.chunk_id), distances: candidates.map((c) => 1 - c.similarity) };
    }
    const literal = vectorLiteral(vector);
    return db.transaction().execute(async (trx) => {
      await setForTransaction(trx, strategy.settings);
      const { rows } = await strategy.query(investigationId, literal).execute(trx);
      return { ids: rows.map((r) => r.id), distances: rows.map((r) => Number(r.distance)) };
    });
  };
  /** the plan of a strategy, or of the path the service's rule takes for this investigation (its own settings and SQL) */
  const explain = async (strategy: Strategy, investigationId: string, vector: number[]) => {
    const literal = vectorLiteral(vector);
    let settings: Readonly<Record<string, string>> = strategy.settings;
    let statement: ReturnType<typeof sql> = strategy.query(investigationId, literal);
    if (strategy.rule) {
      if (!counts.has(investigationId)) {
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from text_chunks where investigation_id = ${investigationId}`.execute(db);
        counts.set(investigationId, rows[0]!.n);
      }
      const path = retrievalPath(counts.get(investigationId)!, options.exactBelow);
      settings = PATH_SETTINGS[path];
      // the index path's read of the graph (its expansion and the unplaced vectors are read exactly beside it)
      statement =
        path === 'exact'
          ? nearestQuery(investigationId, BENCH_MODEL, literal, k, k)
          : nearestQuery(investigationId, BENCH_MODEL, literal, RETRIEVAL.indexCandidates, k, 'indexed');
    }
    return db.transaction().execute(async (trx) => {
      await setForTransaction(trx, settings);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain (costs off) ${statement}`.execute(trx);
      return rows.map((r) => r['QUERY PLAN'].replace(/'\[[^\]]*\]'/g, "'[query]'")).join('\n');
    });
  };
  const measure = async (strategy: Strategy) => {
    for (const q of queries.slice(0, RETRIEVAL_BENCH.warmup)) await runOne(strategy, q.investigationId, q.vector); // warms pages
    const latencies: number[] = [];
    const results: Found[] = [];
    for (const q of queries) {
      const [found, ms] = await timed(() => runOne(strategy, q.investigationId, q.vector));
      results.push(found);
      latencies.push(ms);
    }
    return { latencies, results };
  };

  const rows: Run['rows'] = [];
  let truth: Found[] = [];
  let chosenPlan = '';
  for (const strategy of [...STRATEGIES, ruleStrategy(options.exactBelow)]) {
    if (strategy.needs && !builds[strategy.needs]) continue;
    log(`${engine} ${name} ${layout}: ${strategy.label}`);
    const { latencies, results } = await measure(strategy);
    if (truth.length === 0) truth = results; // the exact scan comes first: the ground truth
    const recalls = results.map((found, i) => recallOf(found, truth[i]!));
    const q0 = queries[0]!;
    const plan = await explain(strategy, q0.investigationId, q0.vector);
    if (strategy.rule) chosenPlan = plan;
    const tieAware = recalls.map((r) => r.tieAware);
    const strict = recalls.map((r) => r.strict);
    rows.push({
      label: strategy.label,
      recall: mean(tieAware),
      minRecall: Math.min(...tieAware),
      strictRecall: mean(strict),
      strictMin: Math.min(...strict),
      latencies,
      plan: planLabel(plan),
    });
  }
  // exact latency by filtered count, for the threshold: the first `count` chunks of the one investigation
  const curve: Run['curve'] = [];
  if (layout === 'single') {
    for (const count of RETRIEVAL_BENCH.exactCurve.filter((c) => c <= chunks)) {
      const latencies: number[] = [];
      for (const [i, q] of queries.slice(0, RETRIEVAL_BENCH.exactCurveQueries + 1).entries()) {
        const literal = vectorLiteral(q.vector);
        const [, ms] = await timed(() =>
          db.transaction().execute(async (trx) => {
            await setForTransaction(trx, EXACT_SETTINGS);
            await sql`with nearest as materialized (
              select c.id, c.embedding <=> ${literal}::vector as distance ${filtered(q.investigationId)} and c.chunk_index < ${count}
              order by c.embedding <=> ${literal}::vector limit ${k}
            ) select id, distance from nearest order by distance`.execute(trx);
          }),
        );
        if (i > 0) latencies.push(ms); // the first warms the pages
      }
      curve.push({ count, latencies });
    }
  }
  const perInvestigation = layout === 'single' ? chunks : Math.round(chunks / RETRIEVAL_BENCH.investigations);
  return {
    engine,
    corpus: name,
    layout,
    chunks,
    perInvestigation,
    loadMs,
    builds,
    rows,
    curve,
    chosenPlan,
    grouped,
    placement: options.placement ? placement : undefined,
    storage,
    exactBelow: options.exactBelow,
    m32Construction: options.m32Construction,
  };
};

const printRun = (r: Run) => {
  const layout =
    r.layout === 'single'
      ? 'one investigation'
      : `over ${RETRIEVAL_BENCH.investigations} investigations (~${r.perInvestigation.toLocaleString('en')} each, the filter case)`;
  console.log(
    `\n  ${r.engine} · ${r.corpus} · ${r.chunks.toLocaleString('en')} chunks ${layout}; ${r.grouped.toLocaleString('en')} grouped as near-duplicates (the index and the truth hold the other ${(r.chunks - r.grouped).toLocaleString('en')})`,
  );
  console.log(
    `    ${r.placement ? `placed by the service in ${seconds(r.placement.ms)}: ${r.placement.nodes.toLocaleString('en')} graph nodes, ${r.placement.behind.toLocaleString('en')} chunks behind them (versions)` : 'not placed (--placement=off): every representative a graph node'}`,
  );
  console.log(
    `    load ${seconds(r.loadMs)}; HNSW builds: ${Object.entries(r.builds)
      .map(([index, ms]) => `${index === 'm32' ? `m32, the service's (ef_construction ${r.m32Construction})` : index} ${seconds(ms)}`)
      .join(', ')} (maintenance_work_mem ${RETRIEVAL_BENCH.maintenanceWorkMem[r.engine]})`,
  );
  console.log(
    `    vectors stored ${r.storage.mode}${r.storage.mode === 'plain' ? ' (in their rows)' : ''}: heap ${r.storage.heapMb.toFixed(0)} MB, TOAST ${r.storage.toastMb.toFixed(0)} MB; shared_buffers ${r.storage.sharedBuffers}`,
  );
  console.log(
    `    ${'strategy'.padEnd(52)} ${'tie-aware'.padStart(9)} ${'min'.padStart(5)} ${'strict'.padStart(7)} ${'min'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  plan`,
  );
  for (const row of r.rows) {
    console.log(
      `    ${row.label.padEnd(52)} ${row.recall.toFixed(3).padStart(9)} ${row.minRecall.toFixed(2).padStart(5)} ${row.strictRecall.toFixed(3).padStart(7)} ${row.strictMin.toFixed(2).padStart(5)} ${quantile(row.latencies, 0.5).toFixed(1).padStart(8)} ${quantile(row.latencies, 0.99).toFixed(1).padStart(8)}  ${row.plan}`,
    );
  }
  if (r.curve.length > 0)
    console.log(
      `    exact latency by filtered count (p50/p99 ms, ${RETRIEVAL_BENCH.exactCurveQueries} queries): ${r.curve
        .map((c) => `${c.count.toLocaleString('en')} → ${quantile(c.latencies, 0.5).toFixed(0)}/${quantile(c.latencies, 0.99).toFixed(0)}`)
        .join(', ')}`,
    );
  const rule = r.rows.find((row) => row.label.startsWith('rule'));
  const before = r.rows.find((row) => row.label.includes('the service before the rule'));
  const engine = ENGINE_NAMES[r.engine];
  const where = `${r.corpus}, ${r.chunks.toLocaleString('en')} chunks, ${r.layout === 'single' ? 'one investigation' : `${RETRIEVAL_BENCH.investigations} investigations`}`;
  if (before) figure('retrieval', { name: `recall@20 before the rule (${where})`, value: before.recall, unit: '', engine });
  if (rule) {
    figure('retrieval', { name: `recall@20 mean, tie-aware (${where})`, value: rule.recall, unit: '', engine, goal: { atLeast: 0.99 } });
    figure('retrieval', { name: `recall@20 min, tie-aware (${where})`, value: rule.minRecall, unit: '', engine, goal: { atLeast: 0.9 } });
    figure('retrieval', { name: `recall@20 mean, strict (${where})`, value: rule.strictRecall, unit: '', engine });
    figure('retrieval', { name: `recall@20 min, strict (${where})`, value: rule.strictMin, unit: '', engine });
    figure('retrieval', {
      name: `p99 (${where})`,
      value: quantile(rule.latencies, 0.99),
      unit: 'ms',
      engine,
      ...(r.engine === 'postgres' && { goal: { atMost: 100 } }),
      note: `the service's searchChunks, ${rule.latencies.length} queries`,
    });
  }
  console.log(`    plan of the rule here (first query):`);
  for (const line of r.chosenPlan.split('\n')) console.log(`      ${line}`);
};

const retrievalOn = async (engine: Engine, handle: DatabaseHandle, chunks: number, flags: string[]) => {
  const db = handle.db;
  await migrateToLatest(db as Kysely<unknown>);
  const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'text_chunks_embedding_idx'`.execute(
    db,
  );
  const serviceIndex = rows[0]!.indexdef; // as migration 0012 built it
  const keysIndex = (await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'text_chunks_lsh_idx'`.execute(db))
    .rows[0]!.indexdef;
  // --vector-storage=external: vectors out of line, as before migration 0019 (the side-by-side measure)
  const storage = flagValue(flags, 'vector-storage');
  if (storage !== undefined) {
    if (!['plain', 'external', 'main', 'extended'].includes(storage))
      throw new Error(`--vector-storage: plain, external, main or extended, got ${storage}`);
    await sql.raw(`alter table text_chunks alter column embedding set storage ${storage}`).execute(db);
  }
  const ids = await setUpInvestigations(db);
  const corpora = (flagValue(flags, 'corpus')?.split(',') ?? ['topical', 'clustered', 'forwarded']) as CorpusName[];
  const layouts = (flagValue(flags, 'layout')?.split(',') ?? ['single', 'spread']) as Layout[];
  const options = {
    queries: flagNumber(flags, 'queries') ?? RETRIEVAL_BENCH.queries,
    exactBelow: flagNumber(flags, 'exact-below') ?? RETRIEVAL_BENCH.exactBelow,
    m32Construction: flagNumber(flags, 'm32-ef-construction') ?? 256,
    // --placement=off: every representative into the graph, as before migration 0018 (the side-by-side measure)
    placement: flagValue(flags, 'placement') !== 'off',
  };
  const indexes = flagValue(flags, 'indexes')?.split(',') ?? Object.keys(INDEXES);
  for (const name of corpora)
    for (const layout of layouts)
      printRun(await retrievalRun(engine, db, ids, name, layout, chunks, { ...options, indexes, serviceIndex, keysIndex }));
};

export const retrievalBench = async (flags: string[] = []) => {
  const both = flagNumber(flags, 'chunks');
  const sizes = {
    pglite: flagNumber(flags, 'pglite-chunks') ?? both ?? RETRIEVAL_BENCH.chunks.pglite,
    postgres: flagNumber(flags, 'postgres-chunks') ?? both ?? RETRIEVAL_BENCH.chunks.postgres,
  };
  const engines = (flagValue(flags, 'engine')?.split(',') ?? ['pglite', 'postgres']) as Engine[];
  console.log(
    `\nRetrieval recall@${k} and latency by strategy (${flagNumber(flags, 'queries') ?? RETRIEVAL_BENCH.queries} queries after ${RETRIEVAL_BENCH.warmup} warm-up; recall against the exact top ${k} of the same filter; p99 of 50 is the slowest but one):`,
  );
  console.log(
    `  Corpora embedded by the twin's feature-hashing embedder, 1024 dims: topical (2,000 topics, Zipf common words), clustered (~100 versions per text, 5% of words changed) and forwarded (${RETRIEVAL_BENCH.forwardCopies} copies per passage, grouped at load as the service groups them). Recall: tie-aware (within ${TIE_SLACK} of the true k-th distance) and strict (the exact top k's own ids).`,
  );
  console.log(
    `  Per-investigation partial indexes are not measured: one index per investigation (${RETRIEVAL_BENCH.investigations} here, unbounded in production) means DDL per new investigation, a build each, and a planner that only uses one when the investigation id is a literal.`,
  );
  if (engines.includes('pglite')) {
    const pgliteDir = mkdtempSync(join(tmpdir(), 'ias-bench-retrieval-'));
    try {
      const handle = await openDatabase({ engine: 'pglite', dataDir: pgliteDir });
      try {
        await retrievalOn('pglite', handle, sizes.pglite, flags);
      } finally {
        await handle.close();
      }
    } finally {
      rmSync(pgliteDir, { recursive: true, force: true });
    }
  }
  if (!engines.includes('postgres')) return;
  const serverUrl = realPostgresUrl();
  if (serverUrl) {
    await withScratchDatabase(serverUrl, async (url) => {
      const handle = await openDatabase({ engine: 'postgres', config: { connectionString: url } });
      try {
        await retrievalOn('postgres', handle, sizes.postgres, flags);
      } finally {
        await handle.close();
      }
    });
  } else {
    skipRealPostgres(`retrieval over ${sizes.postgres.toLocaleString('en')} chunks`);
  }
};
