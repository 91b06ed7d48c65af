/**
 * The retrieval rule (issue 17, docs/retrieval.md) on a corpus the HNSW index alone gets wrong: 1,600
 * near-duplicate chunks (two texts, each copied 800 times with 5 % of its words replaced), embedded by the
 * twin's feature-hashing embedder, in one investigation. A query is a fragment of one text, so hundreds of
 * chunks are almost equally near: the index's search at the earlier settings (ef_search 100, top 20) ends
 * before it has seen all of the true top 20, on the migrated m 32 graph too. Below its threshold the rule
 * finds them all by an exact scan. Above it (threshold lowered here), the index's top 200 at the rule's ef_search (600),
 * re-sorted exactly, find most of them.
 *
 * The index path is not exact on such a corpus, whatever its settings: pgvector's graph (random levels,
 * different on every build) leaves a few chunks unreachable (0.3–5 % in near-duplicate corpora of 1,500–3,000
 * chunks, on both engines), and some true neighbours sit beyond the index's top 200. So above the threshold
 * the test pins what the rule promises: the exact top 20 whenever the index's top 200 hold them, nearest
 * first, and more of the true top 20 than the earlier settings found. Only the exact path is exact for every
 * query (docs/retrieval.md, "Open").
 */
import { sql } from 'kysely';
import { RETRIEVAL, retrievalPath, searchChunks, type Candidate } from '#core/analysis/retrieval';
import { toVectorLiteral } from '#core/embeddings/sources';
import { DEFAULT_AI_MODELS } from '#core/config';
import { useTestDatabase } from '../support/db';
import { addChunks } from '../support/fixtures';
import { versionsCorpus } from '../support/versions-corpus';

test('the path follows the investigation chunk count: exact below the threshold, the index from it on', () => {
  expect(RETRIEVAL.exactBelow).toBe(5_000);
  expect(retrievalPath(0)).toBe('exact');
  expect(retrievalPath(4_999)).toBe('exact');
  expect(retrievalPath(5_000)).toBe('index');
  expect(retrievalPath(100_000)).toBe('index');
  expect(retrievalPath(999, 1_000)).toBe('exact');
  expect(retrievalPath(1_000, 1_000)).toBe('index');
});

const db = useTestDatabase();
/** the model the fixtures' chunks are recorded with */
const MODEL = DEFAULT_AI_MODELS.embedding;
const CORPUS = { texts: 2, versions: 800, replaced: 0.05, queries: 16 };
const k = RETRIEVAL.candidates;
let investigationId = '';
const queries: number[][] = [];

beforeAll(async () => {
  const org = (await db.insertInto('organizations').values({ name: 'Rule Org' }).returning('id').executeTakeFirstOrThrow()).id;
  investigationId = (
    await db
      .insertInto('investigations')
      .values({ organization_id: org, title: 'Near-duplicates' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const corpus = versionsCorpus(CORPUS);
  // bulk load, then build the migrated index from its own definition (far faster than row by row)
  const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'text_chunks_embedding_idx'`.execute(
    db,
  );
  expect(rows[0]?.indexdef).toMatch(/hnsw.*m='32'.*ef_construction='256'.*WHERE \(\(duplicate_of IS NULL\) AND indexed\)/);
  await sql`drop index text_chunks_embedding_idx`.execute(db);
  await addChunks(db, investigationId, corpus.chunks);
  await sql.raw(rows[0]!.indexdef).execute(db);
  await sql`analyze text_chunks`.execute(db);
  queries.push(...corpus.queries);
}, 120_000);

const distance = (c: Candidate) => 1 - c.similarity;

/** How many of `found` count toward the exact top k: no farther than its k-th (as the bench counts recall; near-duplicates can tie). */
const hits = (found: readonly number[], exact: readonly Candidate[]) => {
  const bound = distance(exact[exact.length - 1]!) + 1e-6;
  return Math.min(exact.length, found.filter((d) => d <= bound).length);
};

/** Whether the nearest k of `found` are the exact top k: the same distance at every rank (ids can differ only between ties). */
const holdsExactTop = (found: readonly number[], exact: readonly Candidate[]) => {
  const nearest = [...found].sort((a, b) => a - b);
  return exact.every((c, i) => nearest[i] !== undefined && Math.abs(nearest[i]! - distance(c)) < 1e-6);
};

const expectExactTop = (found: readonly Candidate[], exact: readonly Candidate[]) => {
  expect(found).toHaveLength(exact.length);
  for (const [i, c] of found.entries()) expect(distance(c)).toBeCloseTo(distance(exact[i]!), 5); // nearest first
  expect(holdsExactTop(found.map(distance), exact)).toBe(true);
};

/**
 * A plain index scan (forced) with a relaxed iterative scan: at ef_search 100 and top 20, what the service ran before the
 * rule. The index holds near-duplicate representatives once indexed (migration 0016), so the query says so, as the service's does.
 */
const indexAlone = (vector: number[], settings: { efSearch: number; limit: number }) =>
  db.transaction().execute(async (trx) => {
    for (const setting of [
      `set local hnsw.ef_search = ${settings.efSearch}`,
      'set local hnsw.iterative_scan = relaxed_order',
      'set local enable_seqscan = off',
      'set local enable_bitmapscan = off',
      'set local enable_sort = off',
    ])
      await sql.raw(setting).execute(trx);
    const literal = toVectorLiteral(vector);
    const { rows } = await sql<{ distance: number }>`select embedding <=> ${literal}::vector as distance from text_chunks
      where investigation_id = ${investigationId} and duplicate_of is null and indexed
      order by embedding <=> ${literal}::vector limit ${settings.limit}`.execute(trx);
    return rows.map((r) => Number(r.distance));
  });

test('on near-duplicates the index alone misses some of the true top 20; the rule below its threshold finds them all, exactly', async () => {
  let missed = 0;
  for (const query of queries) {
    const exact = (await searchChunks(db, investigationId, query, { model: MODEL, exact: true })).candidates;
    expect(exact).toHaveLength(k);
    missed += k - hits(await indexAlone(query, { efSearch: 100, limit: k }), exact);

    const rule = await searchChunks(db, investigationId, query, { model: MODEL }); // 1,600 chunks: below 5,000
    expect(rule.path).toBe('exact');
    expectExactTop(rule.candidates, exact);
  }
  expect(missed).toBeGreaterThan(0); // the corpus is hard for the index
}, 120_000);

test('above its threshold the rule re-sorts the index top 200 at its ef_search: it finds true top 20 the index alone missed', async () => {
  let covered = 0;
  let recovered = 0;
  let found = { rule: 0, alone: 0 };
  for (const query of queries) {
    const exact = (await searchChunks(db, investigationId, query, { model: MODEL, exact: true })).candidates;
    const alone = hits(await indexAlone(query, { efSearch: 100, limit: k }), exact);
    const rule = await searchChunks(db, investigationId, query, { model: MODEL, exactBelow: 1_000 }); // 1,600 chunks: the index path
    expect(rule.path).toBe('index');
    found = { rule: found.rule + hits(rule.candidates.map(distance), exact), alone: found.alone + alone };
    // the index's top 200 at the rule's settings: when they hold the true top 20, the rule returns exactly those
    if (!holdsExactTop(await indexAlone(query, { efSearch: RETRIEVAL.efSearch, limit: RETRIEVAL.indexCandidates }), exact)) continue;
    covered++;
    expectExactTop(rule.candidates, exact);
    if (alone < k) recovered++;
  }
  expect(covered).toBeGreaterThanOrEqual(CORPUS.queries / 2);
  expect(recovered).toBeGreaterThan(0); // queries the earlier settings got wrong, answered exactly
  expect(found.rule).toBeGreaterThan(found.alone);
}, 120_000);
