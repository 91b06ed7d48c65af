/**
 * `npm run bench -- embedding`: how long chunks written at once take to be embedded — the work as the embedding worker
 * runs it (as many workers at once as its queue trigger allows, each a series of runs of 240 s followed by the wake-up it
 * asks for when work is left), the real AI gateway (the quota in
 * real time, the background share of the primary region, the fallback region) against the Bedrock stand-in, on the
 * service's schema with its HNSW index — and how many model requests that took. Goals (issue 26): 10,000 chunks
 * analysable within 3 minutes of the last upload on PGlite, 100,000 within 15 minutes on PostgreSQL (the quota alone
 * needs about 12: 85 requests of 96 a minute). Analysable is every vector stored; the time until the workers have
 * also put them all into the HNSW graph, and stop asking to be woken, is the second figure.
 *
 * Flags: `--engine pglite|postgres` (default: both; PostgreSQL needs BENCH_DATABASE_URL), `--chunks N` (default
 * 10,000 on PGlite, 100,000 on PostgreSQL).
 */
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { openDatabase } from '#core/db/connection';
import { openPglite } from '#core/db/pglite';
import { migrateToLatest } from '#core/db/migrate';
import type { Database } from '#core/db/schema';
import { embedWaitingChunks, gatewayEmbedder } from '#core/embeddings/embedding-work';
import { functionById, type QueueTrigger } from '#manifest';
import { startBedrockStandin } from '../../lib/twin/bedrock/standin';
import { seededRandom } from '../support/random';
import { until } from '../support/until';
import { standinClients } from '../support/standin-clients';
import { benchGateway, flagNumber, flagValue, realPostgresUrl, skipRealPostgres, withScratchDatabase } from './bench-support';
import { figure } from './summary';

/** workers at once: the embedding worker's queue trigger's maxConcurrency (manifest/service.ts) */
const WORKERS = (functionById('embedding-worker').triggers.find((t) => t.kind === 'queue') as QueueTrigger).maxConcurrency;

const GOALS = { pglite: { chunks: 10_000, seconds: 180 }, postgres: { chunks: 100_000, seconds: 900 } } as const;
type Engine = keyof typeof GOALS;

/** `count` waiting chunks of one investigation, written as the ingestion writes them (no vectors), 1,000 a statement. */
const writeChunks = async (db: Kysely<Database>, count: number) => {
  const org = (await db.insertInto('organizations').values({ name: 'Bench' }).returning('id').executeTakeFirstOrThrow()).id;
  const inv = (
    await db.insertInto('investigations').values({ organization_id: org, title: 'Bench' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  const item = (
    await db
      .insertInto('evidence_items')
      .values({ investigation_id: inv, title: 'Corpus', content: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const source = (
    await db
      .insertInto('embedding_sources')
      .values({ investigation_id: inv, source_type: 'content', source_id: item, evidence_item_id: item })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  // topical text, as the retrieval bench's: each chunk about one of 2,000 topics, half of it Zipf-common words
  const next = seededRandom(20261127);
  const text = () => {
    const topic = Math.floor(next() * 2_000);
    return Array.from({ length: 120 }, () =>
      next() < 0.5 ? `t${topic}x${Math.floor(next() * 25)}` : `w${Math.floor(5_000 ** next())}`,
    ).join(' ');
  };
  for (let from = 0; from < count; from += 1_000) {
    await db
      .insertInto('text_chunks')
      .values(
        Array.from({ length: Math.min(1_000, count - from) }, (_, i) => ({
          investigation_id: inv,
          embedding_source_id: source,
          source_type: 'content' as const,
          evidence_item_id: item,
          chunk_index: from + i,
          text: text(),
          embedding: null,
        })),
      )
      .execute();
  }
};

const embedAll = async (engine: Engine, db: Kysely<Database>, chunks: number) => {
  await writeChunks(db, chunks);
  const standin = await startBedrockStandin();
  const { client, destroyAll } = standinClients(() => standin.url);
  const gateway = benchGateway({ db, client });
  const started = performance.now();
  const runs: string[] = [];
  const elapsed = () => (performance.now() - started) / 1000;
  // analysable when the last vector is stored: retrieval reads vectors not yet in the HNSW graph exactly, so the
  // placement in the graph that follows (embedding-work.ts, step 4) is timed apart; workers that end with chunks
  // still waiting (the line below says how many) end this clock too
  let ended: number | undefined;
  const analysableAt = until(
    'every chunk stored with its vector',
    async () => {
      const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from text_chunks where embedding is null`.execute(db);
      return rows[0]!.waiting === 0 ? elapsed() : ended;
    },
    Number.POSITIVE_INFINITY,
  );
  /** one worker: runs until nothing waits, each followed by the wake-up it asks for */
  const worker = async (n: number) => {
    for (;;) {
      const outcome = await embedWaitingChunks(db, { embedder: gatewayEmbedder(gateway), timeBudgetMs: 240_000 });
      const at = elapsed().toFixed(0);
      runs.push(
        `${at} s (worker ${n}): ${outcome.chunks} chunks, ${outcome.requests} requests, ${outcome.stopped_by}, ${outcome.waiting} waiting`,
      );
      if (outcome.next_at === null) return;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, outcome.next_at!.getTime() - Date.now())));
    }
  };
  try {
    await Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n + 1)));
  } finally {
    ended = elapsed();
    destroyAll();
    await standin.stop();
  }
  const indexed = ended;
  const analysable = await analysableAt;
  const { rows } = await sql<{ requests: number; primary: number; waiting: number }>`
    select count(*)::int as requests, count(*) filter (where region = 'us-east-1')::int as primary,
           (select count(*)::int from text_chunks where embedding is null) as waiting
    from ai_calls where purpose = 'embedding'`.execute(db);
  const { requests, primary, waiting } = rows[0]!;
  console.log(
    `  ${engine}: ${chunks.toLocaleString('en')} chunks embedded in ${analysable.toFixed(1)} s, in the HNSW graph after ${indexed.toFixed(1)} s — ${requests} model requests (${primary} in the primary region), ${waiting} left`,
  );
  for (const run of runs) console.log(`    run ended at ${run}`);
  const goal = GOALS[engine];
  const how = `${WORKERS} workers, ${requests} model requests (${(requests / (chunks / 1_000)).toFixed(1)} per 1,000 chunks), quota in real time, stand-in Bedrock`;
  figure('embedding', {
    name: `${chunks.toLocaleString('en')} chunks analysable after their upload`,
    value: analysable,
    unit: 's',
    engine: engine === 'pglite' ? 'PGlite' : 'PostgreSQL',
    ...(chunks === goal.chunks && { goal: { atMost: goal.seconds } }),
    note: `${how}; every vector stored (retrieval reads those not yet in the graph exactly)`,
  });
  figure('embedding', {
    name: `${chunks.toLocaleString('en')} chunks in the HNSW graph after their upload`,
    value: indexed,
    unit: 's',
    engine: engine === 'pglite' ? 'PGlite' : 'PostgreSQL',
    note: `${how}; until the workers stop asking to be woken`,
  });
};

export const embeddingBench = async (flags: string[]) => {
  const engines = (flagValue(flags, 'engine')?.split(',') ?? ['pglite', 'postgres']) as Engine[];
  const chunksFlag = flagNumber(flags, 'chunks');
  console.log(`\nEmbedding throughput (chunks written at once; ${WORKERS} embedding workers, their runs until none waits):`);
  for (const engine of engines) {
    const chunks = chunksFlag ?? GOALS[engine].chunks;
    if (engine === 'pglite') {
      const db = new Kysely<Database>({ dialect: new PGliteDialect(await openPglite('memory://')) });
      await migrateToLatest(db as Kysely<unknown>);
      await embedAll(engine, db, chunks);
      await db.destroy();
    } else {
      const server = realPostgresUrl();
      if (!server) {
        skipRealPostgres('embedding');
        continue;
      }
      await withScratchDatabase(server, async (url) => {
        const handle = await openDatabase({ engine: 'postgres', config: { connectionString: url, max: 5 } });
        try {
          await migrateToLatest(handle.db as Kysely<unknown>);
          await embedAll(engine, handle.db, chunks);
        } finally {
          await handle.close();
        }
      });
    }
  }
};
