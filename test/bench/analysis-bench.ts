/**
 * Analysis benches for `npm run bench` (sections `assess` and `retrieval`); prints figures, asserts nothing.
 *
 * - assess: POST /api/analysis/assess latency through the twin's HTTP gateway (real investigator token,
 *   JWT verification, selection, the one counting statement) with 100,000 evidence items in one
 *   investigation, on embedded PGlite and, when BENCH_DATABASE_URL is set, on real PostgreSQL.
 * - retrieval: `nearestChunks` (top 20, HNSW) against the exact top 20 (same query with index scans off)
 *   over random unit vectors: recall@20 and latency at hnsw.ef_search 40 (default) and 100, with the
 *   index build time — 20,000 chunks on PGlite (its HNSW builds are slow), 100,000 on real PostgreSQL.
 *
 * Real PostgreSQL: BENCH_DATABASE_URL points at a server with pgvector; each engine run creates a
 * scratch database there and drops it afterwards. `bash scripts/ci/postgres.sh start` prints such a URL.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { Client } from 'pg';
import { assessEvidence } from '#core/analysis/assess';
import { nearestChunks, RETRIEVAL, type SearchOptions } from '#core/analysis/retrieval';
import { openDatabase, type DatabaseHandle } from '#core/db/connection';
import { migrateToLatest } from '#core/db/migrate';
import type { Database } from '#core/db/schema';
import { embedText } from '../../lib/twin/standin-text';
import { startTwin } from '../../lib/twin/twin';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const ASSESS = {
  evidence: env('BENCH_ASSESS_EVIDENCE', 100_000),
  /** a second investigation in the same organization, so the counts have rows to skip */
  otherEvidence: 20_000,
  questions: 10,
  requests: env('BENCH_ASSESS_REQUESTS', 300),
  warmup: 20,
};

const RETRIEVAL_BENCH = {
  chunks: { pglite: env('BENCH_RETRIEVAL_CHUNKS_PGLITE', 20_000), postgres: env('BENCH_RETRIEVAL_CHUNKS_POSTGRES', 100_000) },
  batch: 1_000,
  queries: 50,
  k: 20,
  efSearch: [40, 100],
  /** rows inserted one by one into the indexed table, to compare incremental index maintenance with the bulk build */
  incremental: 200,
  maintenanceWorkMem: { pglite: '1GB', postgres: '1GB' },
};

type Engine = 'pglite' | 'postgres';

const log = (line: string) => console.log(`  … ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const stats = (samples: number[]) =>
  `p50 ${quantile(samples, 0.5).toFixed(2)} ms  p99 ${quantile(samples, 0.99).toFixed(2)} ms  mean ${mean(samples).toFixed(2)} ms`;

const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await fn();
  return [value, performance.now() - started];
};

// ---------------------------------------------------------------------------------------------------
// Real PostgreSQL: a scratch database per run

export const realPostgresUrl = (): string | undefined => process.env.BENCH_DATABASE_URL || undefined;

export const skipRealPostgres = (what: string) => {
  console.log(`  real PostgreSQL: skipped (${what}) — set BENCH_DATABASE_URL to a server with pgvector, e.g.`);
  console.log('    BENCH_DATABASE_URL="$(bash scripts/ci/postgres.sh start | tail -n1)" npm run bench -- assess retrieval');
  console.log('    (port 55432 may be taken by CI runs: PGPORT_CI=55494 PGDATA_DIR=/tmp/bench-pg bash scripts/ci/postgres.sh start|stop)');
};

/** Creates a scratch database on the BENCH_DATABASE_URL server, hands its URL to `fn`, drops it afterwards. */
const withScratchDatabase = async <T>(serverUrl: string, fn: (url: string) => Promise<T>): Promise<T> => {
  const name = `ias_bench_${Date.now()}_${process.pid}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      return await fn(url.toString());
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
    }
  } finally {
    await admin.end();
  }
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
  // attachments on ~25% of the evidence items (both investigations)
  const [, attachmentMs] = await timed(() =>
    run(sql`insert into attachments (evidence_item_id, file_name, content_type, size_bytes, storage_key, extracted_text)
    select id, 'scan.pdf', 'application/pdf', 120000, 'bench/' || id || '/scan.pdf', 'scanned text'
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

const assessOn = async (engine: Engine, databaseUrl?: string) => {
  const twinDir = mkdtempSync(join(tmpdir(), `ias-bench-assess-${engine}-`));
  try {
    log(`${engine}: starting the twin (seed off, schedules off)`);
    const twin = await startTwin({ port: 0, twinDir, seed: false, schedules: false, ...(databaseUrl && { databaseUrl }) });
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
      const request = async () => {
        const response = await fetch(`${twin.url}/api/analysis/assess`, { method: 'POST', headers, body });
        last = await response.json();
        if (response.status !== 200) throw new Error(`assess answered ${response.status}: ${JSON.stringify(last)}`);
      };
      for (let i = 0; i < ASSESS.warmup; i++) await request();
      const http: number[] = [];
      for (let i = 0; i < ASSESS.requests; i++) http.push((await timed(request))[1]);
      // the same counting statement without HTTP, auth and selection: the database's share
      const direct: number[] = [];
      const input = { investigationId: fixture.investigationId, analysisType: 'question' as const, questionId: fixture.questionId };
      for (let i = 0; i < ASSESS.requests; i++) direct.push((await timed(() => assessEvidence(twin.database.db, input)))[1]);
      const a = last as {
        total_evidence: number;
        linked_evidence: number;
        source_breakdown: { content: number; attachments: number; background_docs: number };
      };
      return {
        engine,
        http,
        direct,
        answer: `total ${a.total_evidence}, linked ${a.linked_evidence}, content ${a.source_breakdown.content}, attachments ${a.source_breakdown.attachments}, background ${a.source_breakdown.background_docs}`,
      };
    } finally {
      await twin.stop();
    }
  } finally {
    rmSync(twinDir, { recursive: true, force: true });
  }
};

export const assessBench = async () => {
  console.log(
    `\nAssess latency (POST /api/analysis/assess through the twin's HTTP gateway, question analysis, ${ASSESS.evidence.toLocaleString('en')} evidence items in one investigation; ${ASSESS.requests} sequential requests after ${ASSESS.warmup} warm-up):`,
  );
  const results = [await assessOn('pglite')];
  const serverUrl = realPostgresUrl();
  if (serverUrl) results.push(await withScratchDatabase(serverUrl, (url) => assessOn('postgres', url)));
  for (const r of results) {
    console.log(`  ${r.engine.padEnd(8)} HTTP     ${stats(r.http)}`);
    console.log(`  ${''.padEnd(8)} direct   ${stats(r.direct)}   (assessEvidence alone, no HTTP/auth/selection)`);
    console.log(`  ${''.padEnd(8)} answer   ${r.answer}`);
  }
  if (!serverUrl) skipRealPostgres('assess on PostgreSQL');
  console.log('  spec limit: under 100 ms');
};

// ---------------------------------------------------------------------------------------------------
// retrieval

/**
 * Synthetic corpus with the structure retrieval meets in practice: each chunk is about one of many
 * topics (words drawn half from its topic's own vocabulary, half from a Zipf-distributed common
 * vocabulary) and is embedded with the twin's feature-hashing embedder, so similar texts are near
 * each other. Deterministic (seeded), so runs compare. Uniform random vectors, by contrast, are
 * HNSW's pathological case: every neighbour is almost as far as any other.
 */
const corpus = (seed: number) => {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const TOPICS = 2_000;
  const common = () => `w${Math.floor(Math.pow(5_000, next()))}`; // Zipf-like: small indexes are frequent
  const topical = (topic: number) => `t${topic}x${Math.floor(next() * 25)}`;
  const text = (topic: number, words: number) => Array.from({ length: words }, () => (next() < 0.5 ? topical(topic) : common())).join(' ');
  return {
    chunk: () => text(Math.floor(next() * TOPICS), 60 + Math.floor(next() * 60)),
    query: () => text(Math.floor(next() * TOPICS), 8 + Math.floor(next() * 6)),
  };
};

const vectorLiteral = (text: string) =>
  `[${embedText(text, 1024)
    .map((x) => (x === 0 ? '0' : x.toPrecision(6)))
    .join(',')}]`;

/** One round trip per batch (the vectors are computed here, sent as pgvector literals). */
const insertCorpusChunks = (
  db: Kysely<Database>,
  ids: { investigationId: string; sourceId: string; evidenceItemId: string },
  from: number,
  count: number,
  texts: ReturnType<typeof corpus>,
) =>
  db
    .insertInto('text_chunks')
    .values(
      Array.from({ length: count }, (_, i) => {
        const text = texts.chunk();
        return {
          investigation_id: ids.investigationId,
          embedding_source_id: ids.sourceId,
          source_type: 'content' as const,
          evidence_item_id: ids.evidenceItemId,
          chunk_index: from + i,
          text: text.slice(0, 200),
          token_count: 200,
          embedding: vectorLiteral(text),
        };
      }),
    )
    .execute();

const retrievalOn = async (engine: Engine, handle: DatabaseHandle, chunks: number) => {
  const db = handle.db;
  await migrateToLatest(db as Kysely<unknown>);
  const organizationId = randomUUID();
  const investigationId = randomUUID();
  const evidenceItemId = randomUUID();
  const sourceId = randomUUID();
  await sql`insert into organizations (id, name) values (${organizationId}, 'Bench organization')`.execute(db);
  await sql`insert into investigations (id, organization_id, title) values (${investigationId}, ${organizationId}, 'Bench: retrieval')`.execute(
    db,
  );
  await sql`insert into evidence_items (id, investigation_id, title, content) values (${evidenceItemId}, ${investigationId}, 'Bench source', 'text')`.execute(
    db,
  );
  await sql`insert into embedding_sources (id, investigation_id, source_type, source_id, status) values (${sourceId}, ${investigationId}, 'content', ${evidenceItemId}, 'embedded')`.execute(
    db,
  );
  const ids = { investigationId, sourceId, evidenceItemId };
  const texts = corpus(20261122);

  // Bulk load without the index, then build it once: pgvector's advice, and far faster than
  // maintaining the graph row by row (the incremental figure below shows by how much).
  await sql`drop index text_chunks_embedding_idx`.execute(db);
  const [, loadMs] = await timed(async () => {
    for (let from = 1; from <= chunks; from += RETRIEVAL_BENCH.batch) {
      const count = Math.min(RETRIEVAL_BENCH.batch, chunks - from + 1);
      await insertCorpusChunks(db, ids, from, count, texts);
      if ((from - 1 + count) % 20_000 === 0 || from + count > chunks)
        log(`${engine}: ${(from - 1 + count).toLocaleString('en')} / ${chunks.toLocaleString('en')} chunks inserted`);
    }
  });
  const mwm = RETRIEVAL_BENCH.maintenanceWorkMem[engine];
  log(
    `${engine}: building the HNSW index (maintenance_work_mem ${mwm})${engine === 'pglite' ? '; this takes a minute or more on PGlite' : ''}`,
  );
  const [workers, buildMs] = await timed(() =>
    db.transaction().execute(async (trx) => {
      await sql.raw(`set local maintenance_work_mem = '${mwm}'`).execute(trx);
      const { rows } = await sql<{ workers: string }>`select current_setting('max_parallel_maintenance_workers') as workers`.execute(trx);
      await sql`create index text_chunks_embedding_idx on text_chunks using hnsw (embedding vector_cosine_ops)`.execute(trx);
      return rows[0]!.workers;
    }),
  );
  log(`${engine}: index built in ${seconds(buildMs)}`);
  // incremental maintenance: rows one by one into the indexed table (what the embedding worker does)
  const [, incrementalMs] = await timed(async () => {
    for (let i = 0; i < RETRIEVAL_BENCH.incremental; i++) await insertCorpusChunks(db, ids, chunks + 1 + i, 1, texts);
  });
  // the same rows' cost without the index, for the difference
  const [, plainMs] = await timed(() =>
    db.transaction().execute(async (trx) => {
      await sql`create temporary table bench_plain (like text_chunks including defaults) on commit drop`.execute(trx);
      for (let i = 0; i < RETRIEVAL_BENCH.incremental; i++) {
        await sql`insert into bench_plain (investigation_id, embedding_source_id, source_type, evidence_item_id, chunk_index, text, token_count, embedding)
        values (${investigationId}, ${sourceId}, 'content', ${evidenceItemId}, ${i}, 't', 1, ${vectorLiteral(texts.chunk())}::vector)`.execute(
          trx,
        );
      }
    }),
  );
  await sql`analyze text_chunks`.execute(db);
  const total = chunks + RETRIEVAL_BENCH.incremental;

  const queries = Array.from({ length: RETRIEVAL_BENCH.queries }, () => embedText(texts.query(), 1024));
  const plan = async (settings: string) =>
    db.transaction().execute(async (trx) => {
      for (const setting of settings.split(';')) await sql.raw(setting).execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select c.id from text_chunks c
      left join background_documents b on b.id = c.background_document_id
      where c.investigation_id = ${investigationId} and c.embedding is not null and coalesce(b.included_for_ai, true)
      order by c.embedding <=> ${`[${queries[0]!.join(',')}]`}::vector limit ${RETRIEVAL_BENCH.k}`.execute(trx);
      const text = rows.map((r) => r['QUERY PLAN']).join('\n');
      return text.includes('text_chunks_embedding_idx')
        ? 'HNSW index scan'
        : text.includes('Seq Scan')
          ? 'seq scan + sort'
          : text.includes('Bitmap')
            ? 'bitmap scan + sort'
            : 'other';
    });
  const search = async (options: SearchOptions) => {
    const latencies: number[] = [];
    const results: string[][] = [];
    for (const query of queries) {
      const [found, ms] = await timed(() => nearestChunks(db, investigationId, query, { limit: RETRIEVAL_BENCH.k, ...options }));
      results.push(found.map((r) => r.chunk_id));
      latencies.push(ms);
    }
    return { latencies, results };
  };
  const exactSettings = 'set local enable_indexscan = off';
  log(`${engine}: ${RETRIEVAL_BENCH.queries} exact searches (twice: warm-up, measured)`);
  await search({ exact: true }); // a first pass warms the table pages; the second is measured
  const exact = await search({ exact: true });
  const exactPlan = await plan(exactSettings);
  const rows: { label: string; recall: number; minRecall: number; latencies: number[]; plan: string }[] = [];
  for (const ef of RETRIEVAL_BENCH.efSearch) {
    // the settings nearestChunks applies, for the plan shown beside the figures
    const settings = `set local hnsw.ef_search = ${ef}; set local hnsw.iterative_scan = relaxed_order`;
    log(`${engine}: ${RETRIEVAL_BENCH.queries} HNSW searches at ef_search ${ef} (twice: warm-up, measured)`);
    await search({ efSearch: ef }); // a first pass warms the index pages; the second is measured
    const hnsw = await search({ efSearch: ef });
    const recalls = hnsw.results.map((found, i) => {
      const truth = new Set(exact.results[i]);
      return found.filter((id) => truth.has(id)).length / RETRIEVAL_BENCH.k;
    });
    rows.push({
      label: `HNSW ef_search ${ef}${ef === 40 ? ' (pgvector default)' : ef === RETRIEVAL.efSearch ? ' (the service)' : ''}`,
      recall: mean(recalls),
      minRecall: Math.min(...recalls),
      latencies: hnsw.latencies,
      plan: await plan(settings),
    });
  }
  return {
    engine,
    chunks,
    total,
    loadMs,
    buildMs,
    workers,
    mwm,
    incrementalMs,
    plainMs,
    exact: { latencies: exact.latencies, plan: exactPlan },
    rows,
  };
};

const printRetrieval = (r: Awaited<ReturnType<typeof retrievalOn>>) => {
  const n = RETRIEVAL_BENCH.incremental;
  console.log(
    `  ${r.engine}: ${r.chunks.toLocaleString('en')} chunks bulk-loaded + ${RETRIEVAL_BENCH.incremental} inserted one by one = ${r.total.toLocaleString('en')} searched`,
  );
  console.log(
    `    bulk insert without the index     ${seconds(r.loadMs)} (${Math.round(r.total / (r.loadMs / 1000)).toLocaleString('en')} rows/s, vectors computed by the bench)`,
  );
  console.log(
    `    HNSW index build                  ${seconds(r.buildMs)} (maintenance_work_mem ${r.mwm}, max_parallel_maintenance_workers ${r.workers})`,
  );
  const perRowIndexed = r.incrementalMs / n;
  const perRowPlain = r.plainMs / n;
  console.log(
    `    one-by-one insert, indexed table  ${perRowIndexed.toFixed(1)} ms/row (${perRowPlain.toFixed(1)} ms/row unindexed) → ${r.chunks.toLocaleString('en')} rows one by one ≈ ${seconds(perRowIndexed * r.chunks)} vs bulk load + build ${seconds(r.loadMs + r.buildMs)}`,
  );
  console.log(`    ${'search'.padEnd(38)} ${'recall@20'.padStart(9)} ${'min'.padStart(5)}   latency`);
  console.log(
    `    ${'exact (index scans off)'.padEnd(38)} ${'1.000'.padStart(9)} ${'1.00'.padStart(5)}   ${stats(r.exact.latencies)}   [${r.exact.plan}]`,
  );
  for (const row of r.rows) {
    console.log(
      `    ${row.label.padEnd(38)} ${row.recall.toFixed(3).padStart(9)} ${row.minRecall.toFixed(2).padStart(5)}   ${stats(row.latencies)}   [${row.plan}]`,
    );
  }
};

export const retrievalBench = async () => {
  console.log(
    `\nRetrieval (nearestChunks top ${RETRIEVAL_BENCH.k}, HNSW vs exact, ${RETRIEVAL_BENCH.queries} queries, one investigation):`,
  );
  console.log(
    "  Corpus: synthetic topical texts (2,000 topics, Zipf common words) embedded by the twin's feature-hashing embedder, 1024 dims.",
  );
  const results = [];
  const pgliteDir = mkdtempSync(join(tmpdir(), 'ias-bench-retrieval-'));
  try {
    const handle = await openDatabase({ engine: 'pglite', dataDir: pgliteDir });
    try {
      results.push(await retrievalOn('pglite', handle, RETRIEVAL_BENCH.chunks.pglite));
    } finally {
      await handle.close();
    }
  } finally {
    rmSync(pgliteDir, { recursive: true, force: true });
  }
  printRetrieval(results[0]!);
  const serverUrl = realPostgresUrl();
  if (serverUrl) {
    const r = await withScratchDatabase(serverUrl, async (url) => {
      const handle = await openDatabase({ engine: 'postgres', config: { connectionString: url } });
      try {
        return await retrievalOn('postgres', handle, RETRIEVAL_BENCH.chunks.postgres);
      } finally {
        await handle.close();
      }
    });
    printRetrieval(r);
  } else {
    skipRealPostgres(`retrieval over ${RETRIEVAL_BENCH.chunks.postgres.toLocaleString('en')} chunks`);
  }
};
