/**
 * Retrieval through the HNSW index. The rule searches a small investigation exactly, so this test lowers
 * its threshold to take the index path (and drops the investigation index) and checks that a small
 * investigation beside a large one still gets all its chunks, in exact order: the HNSW graph spans
 * every investigation, and without pgvector's iterative scan the filtered search would come back short.
 * A vector stored but not yet put into the graph is read exactly beside it. The rule itself, on a corpus the index
 * alone gets wrong: retrieval-rule.test.ts.
 */
import { sql } from 'kysely';
import { nearestChunks, nearestQuery, PATH_SETTINGS, RETRIEVAL, searchChunks } from '#core/analysis/retrieval';
import { setForTransaction } from '#core/db/transaction-state';
import { EMBEDDING_DIMENSIONS } from '#core/db/migrations/0001-domain';
import { placeStoredVectors } from '#core/embeddings/chunk-claims';
import { toVectorLiteral } from '#core/embeddings/sources';
import { DEFAULT_AI_MODELS } from '#core/config';
import { useTestDatabase } from '../support/db';
import { addChunks } from '../support/fixtures';
import { seededRandom } from '../support/random';

const db = useTestDatabase();
/** the model the fixtures' chunks are recorded with */
const MODEL = DEFAULT_AI_MODELS.embedding;
const ids = { large: '', small: '' };

/** Deterministic pseudo-random vectors, so the test is the same on every run. */
const vectors = (count: number, seed: number) => {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: EMBEDDING_DIMENSIONS }, () => next() - 0.5));
};

const chunksOf = (embeddings: number[][]) => embeddings.map((embedding, i) => ({ text: `chunk ${i}`, embedding }));

beforeAll(async () => {
  const org = (await db.insertInto('organizations').values({ name: 'Retrieval Org' }).returning('id').executeTakeFirstOrThrow()).id;
  ids.large = (
    await db.insertInto('investigations').values({ organization_id: org, title: 'Large' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  ids.small = (
    await db.insertInto('investigations').values({ organization_id: org, title: 'Small' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  // bulk load, then build the migrated HNSW index from its own definition (row by row into the m 32 graph is slow on PGlite)
  const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'text_chunks_embedding_idx'`.execute(
    db,
  );
  await sql`drop index text_chunks_embedding_idx`.execute(db);
  await addChunks(db, ids.large, chunksOf(vectors(600, 7)));
  await addChunks(db, ids.small, chunksOf(vectors(12, 99)));
  await sql.raw(rows[0]!.indexdef).execute(db);
  // this file's database only: the investigation index would otherwise answer the small investigation exactly
  await sql`drop index text_chunks_investigation_idx`.execute(db);
}, 60_000);

test('through the HNSW index, a small investigation beside a large one gets all its chunks, nearest first', async () => {
  const [query] = vectors(1, 12345);
  const exact = await nearestChunks(db, ids.small, query!, { model: MODEL, exact: true });
  expect(exact).toHaveLength(12);

  const plan = await db.transaction().execute(async (trx) => {
    await setForTransaction(trx, PATH_SETTINGS.index);
    // the index path's read of the graph (the vectors not yet in it are read exactly beside it)
    const statement = nearestQuery(ids.small, MODEL, toVectorLiteral(query!), RETRIEVAL.indexCandidates, RETRIEVAL.candidates, 'indexed');
    const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(trx);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
  expect(plan).toContain('text_chunks_embedding_idx');

  const viaIndex = await searchChunks(db, ids.small, query!, { model: MODEL, exactBelow: 0 });
  expect(viaIndex.path).toBe('index');
  expect(viaIndex.candidates.map((c) => c.chunk_id)).toEqual(exact.map((c) => c.chunk_id));
  for (const [i, c] of viaIndex.candidates.entries()) expect(c.similarity).toBeCloseTo(exact[i]!.similarity, 6);
}, 60_000);

test('a vector stored but not yet in the graph is found on the index path, exactly; indexing it changes no answer', async () => {
  const [query] = vectors(1, 777);
  // the nearest passage of all: the query itself, stored as the embedding work stores it (not yet indexed)
  await addChunks(db, ids.large, [{ text: 'just stored', embedding: query! }]);
  const fresh = await db.selectFrom('text_chunks').select('id').where('text', '=', 'just stored').executeTakeFirstOrThrow();
  await db.updateTable('text_chunks').set({ indexed: false }).where('id', '=', fresh.id).execute();

  const exact = await nearestChunks(db, ids.large, query!, { model: MODEL, exact: true });
  const before = await searchChunks(db, ids.large, query!, { model: MODEL, exactBelow: 0 });
  expect(before.path).toBe('index');
  expect(before.candidates[0]).toMatchObject({ chunk_id: fresh.id });
  expect(before.candidates[0]!.similarity).toBeCloseTo(1, 6);
  expect(before.candidates[0]!.chunk_id).toBe(exact[0]!.chunk_id);

  expect(await placeStoredVectors(db, 10)).toBe(1);
  expect(await placeStoredVectors(db, 10)).toBe(0);
  const after = await searchChunks(db, ids.large, query!, { model: MODEL, exactBelow: 0 });
  expect(after.candidates[0]!.chunk_id).toBe(fresh.id);
}, 60_000);
