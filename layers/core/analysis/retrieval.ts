/**
 * Semantic retrieval for an analysis: the investigation's chunks nearest to the query (pgvector
 * cosine distance), and which of them go into the AI's context. Background documents an
 * administrator excluded from the AI are never candidates. Only vectors of the query's own model are
 * searched (`embedding_model`: two models' vectors are not comparable, and after a change of model the
 * old ones wait to be embedded again), and only the representative of a near-duplicate group (its
 * duplicates carry copies of its vector).
 */
import { sql, type Kysely } from 'kysely';
import { config, ENV } from '#core/config';
import type { Database, SourceType } from '#core/db/schema';
import { setForTransaction } from '#core/db/transaction-state';
import { GRAPH_ANCHOR_COSINE } from '#core/embeddings/near-duplicates';
import { toVectorLiteral } from '#core/embeddings/sources';

export const RETRIEVAL = {
  /** nearest chunks considered (and shown on the retrieval panel) */
  candidates: 20,
  /** at most this many go into the prompt */
  maxIncluded: 8,
  /**
   * below this cosine similarity a chunk is not relevant enough to include: the default of the per-stage
   * floor (RETRIEVAL_MIN_SIMILARITY, CDK context retrievalMinSimilarity). Low on purpose: cosine
   * similarity between a short question and an 800-character passage rarely passes 0.6 even when the
   * passage answers it (dense embedding models and the twin's feature hashing alike), so the ranking and the
   * context limit do most of the choosing; the bands shown to investigators stay the spec's.
   */
  minSimilarity: 0.2,
  /**
   * when no candidate reaches the floor, this many of the closest are included all the same (and the
   * analysis is marked low_relevance): the model never gets an empty context while evidence exists, and a
   * few weak passages are less noise than a full context of them
   */
  lowRelevanceIncluded: 5,
  /**
   * The retrieval rule (docs/retrieval.md, measured with `npm run bench -- retrieval`): below this many chunks
   * in the investigation the search is exact, recall 1 by construction and ≤ ~80 ms p99 at 5,000 on
   * PostgreSQL (linear, ~8 µs a chunk). Small investigations must not use the index: HNSW spans every
   * investigation, and a forced scan filtered to one of 500 stops at hnsw.max_scan_tuples (recall 0.54).
   */
  exactBelow: 5_000,
  /**
   * At or above it, the HNSW index (m 32, ef_construction 256: migration 0012) at this ef_search, its top
   * `indexCandidates` re-sorted exactly. At 100k chunks in one investigation on PostgreSQL (tie-aware recall@20,
   * docs/retrieval.md): ef 600 keeps ef 1000's recall on the topical and forwarded corpora (1.000 / min 1.00) at
   * two thirds of its p99 (126 against 189 ms, forced); on the clustered one both had min 0.00 (a knot of versions
   * the graph never entered) until migration 0018 placed versions behind one node: 1.000 / min 1.00 since;
   * the earlier ef 100 on the default graph: 0.842 (min 0.00). ef 400 is not enough: min 0.85 on one topical build.
   */
  efSearch: 600,
  indexCandidates: 200,
  /**
   * The chunks behind graph nodes (migration 0018) read on the index path: those behind the `firstNodes` nearest hits
   * that have any, then behind the other hits that can hold nearer ones than the 20th found so far, nearest first, up
   * to `budget` chunks (`nodesToExpand`). On the clustered corpus a text's versions sit behind about four nodes, 21
   * chunks each; reading 1,900 chunks took 40–75 ms on PostgreSQL while vectors lived out of line; since migration
   * 0019 keeps them in their rows the whole rule's p50 there is 30 ms (docs/retrieval.md).
   */
  expansion: { firstNodes: 4, budget: 2_000 },
} as const;

export type InclusionRules = Pick<typeof RETRIEVAL, 'maxIncluded' | 'lowRelevanceIncluded'> & { minSimilarity: number };

/** The inclusion rules of this deployment: RETRIEVAL with the stage's floor (similarity-floor.ts). */
export const inclusionRules = (): InclusionRules => ({
  ...RETRIEVAL,
  minSimilarity: config()[ENV.retrievalMinSimilarity] ?? RETRIEVAL.minSimilarity,
});

/** The rule an analysis's context was chosen by, as stored with it (retrieval_quality.rule) and shown on its retrieval panel. */
export interface InclusionRuleRecord {
  min_similarity: number;
  max_included: number;
  low_relevance_included: number;
}

export const inclusionRuleRecord = (rules: InclusionRules): InclusionRuleRecord => ({
  min_similarity: rules.minSimilarity,
  max_included: rules.maxIncluded,
  low_relevance_included: rules.lowRelevanceIncluded,
});

export const EXCLUSION = {
  belowThreshold: 'below similarity threshold',
  contextFull: 'context limit reached (more relevant chunks were included)',
} as const;

export interface Candidate {
  chunk_id: string;
  text: string;
  source_type: SourceType;
  evidence_item_id: string | null;
  background_document_id: string | null;
  similarity: number;
}

interface Ranked extends Candidate {
  rank: number;
  included: boolean;
  exclusion_reason: string | null;
}

export interface Inclusion {
  ranked: Ranked[];
  /** no candidate reached the floor: the closest `lowRelevanceIncluded` were included instead */
  lowRelevance: boolean;
}

/**
 * Pure: candidates arrive nearest first; the first `maxIncluded` at or above the floor are included. When
 * none reaches it, the first `lowRelevanceIncluded` are (so the context is never empty while there are
 * candidates); the rest keep "below similarity threshold", which they are.
 */
export const decideInclusion = (candidates: readonly Candidate[], rules: InclusionRules): Inclusion => {
  const relevant = (c: Candidate) => c.similarity >= rules.minSimilarity;
  const lowRelevance = candidates.length > 0 && !candidates.some(relevant);
  const room = lowRelevance ? rules.lowRelevanceIncluded : rules.maxIncluded;
  let included = 0;
  const ranked = candidates.map((c, i) => {
    const take = (lowRelevance || relevant(c)) && included < room;
    if (take) included++;
    return {
      ...c,
      rank: i + 1,
      included: take,
      exclusion_reason: take ? null : relevant(c) ? EXCLUSION.contextFull : EXCLUSION.belowThreshold,
    };
  });
  return { ranked, lowRelevance };
};

export interface SearchOptions {
  /** the embedding model the query was embedded with: only chunks embedded by it are searched */
  model: string;
  limit?: number;
  /** exact search (no index): the ground truth the bench measures recall against */
  exact?: boolean;
  /** the rule's threshold (RETRIEVAL.exactBelow); tests lower it to take the index path on a small corpus */
  exactBelow?: number;
}

/** How a search ran: `index-short` is the index path that came back short and was answered exactly. */
export type RetrievalPath = 'exact' | 'index' | 'index-short';

/** Pure: the rule's choice from the investigation's chunk count. */
export const retrievalPath = (chunkCount: number, exactBelow: number = RETRIEVAL.exactBelow): 'exact' | 'index' =>
  chunkCount < exactBelow ? 'exact' : 'index';

/**
 * The transaction-scoped settings of each path (../db/transaction-state.ts). Exact: no index scan (the
 * investigation's b-tree bitmap scan, or a sequential scan, then a sort). Index: the HNSW scan forced, since the
 * planner costs it above a scan and sort of the whole investigation once the limit is 200; jit off because the
 * disabled paths' cost penalty lifts the plan over jit_above_cost, and compiling then adds ~100 ms to every query (measured).
 */
export const PATH_SETTINGS = {
  exact: { enable_indexscan: 'off' },
  index: {
    'hnsw.ef_search': String(RETRIEVAL.efSearch),
    'hnsw.iterative_scan': 'relaxed_order',
    enable_seqscan: 'off',
    enable_bitmapscan: 'off',
    enable_sort: 'off',
    jit: 'off',
  },
  /** back to exact after the index path, in the same transaction */
  indexToExact: { enable_indexscan: 'off', enable_seqscan: 'on', enable_bitmapscan: 'on', enable_sort: 'on' },
} as const satisfies Record<string, Record<string, string>>;

/**
 * Which vectors a search reads: all of them (the exact path), the HNSW graph's nodes (`indexed`), those stored but
 * not yet placed (migrations 0016, 0018: the embedding work places them after storing them), read exactly, or given
 * chunks and the chunks placed behind given nodes (`graph_via`, migration 0018), read exactly.
 */
export type SearchPart = 'all' | 'indexed' | 'unplaced' | { chunks: readonly string[]; behind: readonly string[] };

const partFilter = (part: SearchPart) =>
  part === 'all'
    ? sql``
    : part === 'indexed'
      ? sql`and c.indexed`
      : part === 'unplaced'
        ? sql`and not c.indexed and c.graph_via is null`
        : sql`and (c.id = any(${[...part.chunks]}::uuid[]) or c.graph_via = any(${[...part.behind]}::uuid[]))`;

/**
 * Pure: of the index's hits with chunks behind them (graph nodes, nearest first), those still to expand once the
 * nearest `limit` found so far reach `kthSimilarity` (undefined while fewer are found: every one), nearest first,
 * until `budget` chunks behind them are taken (the nearest always). A chunk behind a node is within
 * GRAPH_ANCHOR_COSINE of it, so by the triangle inequality on angles it can be nearer than the k-th found only when
 * its node's angle to the query is at most the k-th's plus acos(GRAPH_ANCHOR_COSINE). Nothing tighter holds: a node
 * that lacks a word of a short query (one of the 5 % changed) can sit far below the versions behind it that hold it.
 */
export const nodesToExpand = <Hit extends { chunk_id: string; similarity: number; behind: number }>(
  hits: readonly Hit[],
  kthSimilarity: number | undefined,
  budget: number,
  nodeCosine: number = GRAPH_ANCHOR_COSINE,
): Hit[] => {
  const angle = (similarity: number) => Math.acos(Math.min(1, Math.max(-1, similarity)));
  const bound = kthSimilarity === undefined ? Math.PI : angle(kthSimilarity) + angle(nodeCosine);
  const taken: Hit[] = [];
  let left = budget;
  for (const hit of hits.filter((h) => angle(h.similarity) <= bound)) {
    if (taken.length > 0 && hit.behind > left) break;
    taken.push(hit);
    left -= hit.behind;
  }
  return taken;
};

/** The investigation's `take` nearest chunks of a part, by cosine distance (the index's order on the index path). */
const nearestChunksOf = (investigationId: string, model: string, vector: string, take: number, part: SearchPart) => sql`
      select c.id as chunk_id, c.text, c.source_type, c.evidence_item_id, c.background_document_id, c.embedding
      from text_chunks c
      left join background_documents b on b.id = c.background_document_id
      where c.investigation_id = ${investigationId} and c.embedding is not null and c.embedding_model = ${model}
        and c.duplicate_of is null and coalesce(b.included_for_ai, true) ${partFilter(part)}
      order by c.embedding <=> ${vector}::vector
      limit ${take}`;

/**
 * The search itself: the investigation's `take` nearest chunks by cosine distance (in the index's order on
 * the index path: relaxed order returns them slightly out of order), then the nearest `limit` of those,
 * sorted exactly. Background documents excluded from the AI are never candidates. The distance is computed
 * again outside the CTE on purpose: were it a CTE column, newer planners (PGlite's) take the CTE's order
 * as the sort and skip the re-sort, leaving the relaxed order in place.
 */
export const nearestQuery = (
  investigationId: string,
  model: string,
  vector: string,
  take: number,
  limit: number,
  part: SearchPart = 'all',
) =>
  sql<Candidate>`
    with nearest as materialized (${nearestChunksOf(investigationId, model, vector, take, part)})
    select chunk_id, text, source_type, evidence_item_id, background_document_id, 1 - (embedding <=> ${vector}::vector) as similarity
    from nearest order by embedding <=> ${vector}::vector limit ${limit}`;

/**
 * nearestQuery's candidates without their text: the index's hits, each with how many chunks are placed behind it
 * (text_chunks_graph_via_idx), nearest first
 */
const nearestHitsQuery = (investigationId: string, model: string, vector: string, take: number, part: SearchPart) =>
  sql<{ chunk_id: string; similarity: number; behind: number }>`
    with nearest as materialized (${nearestChunksOf(investigationId, model, vector, take, part)})
    select chunk_id, 1 - (embedding <=> ${vector}::vector) as similarity,
           (select count(*)::int from text_chunks m where m.graph_via = nearest.chunk_id) as behind
    from nearest order by embedding <=> ${vector}::vector`;

/**
 * The retrieval rule, in one transaction (its settings last that long): count the investigation's chunks, up to the
 * threshold (an index-only scan of its b-tree); below `exactBelow` search exactly, else take the HNSW index's top
 * `indexCandidates` nodes and keep the exact nearest `limit` of them and of the chunks placed behind those of them
 * near enough to hold nearer ones (`nodesToExpand`), together with the exact nearest of the vectors stored but not
 * yet placed (none once the embedding work has caught up: a partial index holds them). An
 * index path that comes back short (the iterative scan stops at hnsw.max_scan_tuples, e.g. for an investigation
 * that is a small share of a very large table) is answered exactly instead: slower, never incomplete.
 */
export const searchChunks = (
  db: Kysely<Database>,
  investigationId: string,
  query: number[],
  options: SearchOptions,
): Promise<{ path: RetrievalPath; candidates: Candidate[] }> => {
  const { model, limit = RETRIEVAL.candidates, exact = false, exactBelow = RETRIEVAL.exactBelow } = options;
  const vector = toVectorLiteral(query);
  return db.transaction().execute(async (trx) => {
    const exactly = async () => (await nearestQuery(investigationId, model, vector, limit, limit).execute(trx)).rows;
    let path: RetrievalPath = 'exact';
    let count = 0;
    if (!exact) {
      // counted no further than the rule and the short-answer check need: at 100,000 chunks a full count was ~20 ms
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from (select 1 from text_chunks where investigation_id = ${investigationId}
                                        limit ${Math.max(exactBelow, limit)}) counted`.execute(trx);
      count = Number(rows[0]?.n ?? 0);
      path = retrievalPath(count, exactBelow);
    }
    let rows: Candidate[];
    if (path === 'exact') {
      await setForTransaction(trx, PATH_SETTINGS.exact);
      rows = await exactly();
    } else {
      await setForTransaction(trx, PATH_SETTINGS.index);
      const hits = (
        await nearestHitsQuery(investigationId, model, vector, Math.max(limit, RETRIEVAL.indexCandidates), 'indexed').execute(trx)
      ).rows.map((hit) => ({ ...hit, similarity: Number(hit.similarity), behind: Number(hit.behind) }));
      await setForTransaction(trx, PATH_SETTINGS.indexToExact);
      // the nearest hits and the chunks behind the nearest few nodes; then behind the other nodes near enough to
      // what those found to hold nearer chunks
      const withChunks = hits.filter((hit) => hit.behind > 0);
      const first = withChunks.slice(0, RETRIEVAL.expansion.firstNodes);
      const nearest = (
        await nearestQuery(investigationId, model, vector, limit, limit, {
          chunks: hits.slice(0, limit).map((hit) => hit.chunk_id),
          behind: first.map((hit) => hit.chunk_id),
        }).execute(trx)
      ).rows;
      const kth = nearest.length < limit ? undefined : Number(nearest[limit - 1]!.similarity);
      const more = nodesToExpand(withChunks.slice(first.length), kth, RETRIEVAL.expansion.budget).map((hit) => hit.chunk_id);
      const behindMore =
        more.length === 0
          ? []
          : (await nearestQuery(investigationId, model, vector, limit, limit, { chunks: [], behind: more }).execute(trx)).rows;
      const unplaced = (await nearestQuery(investigationId, model, vector, limit, limit, 'unplaced').execute(trx)).rows;
      rows = [...nearest, ...behindMore, ...unplaced].sort((a, b) => Number(b.similarity) - Number(a.similarity)).slice(0, limit);
      if (rows.length < Math.min(limit, count)) {
        path = 'index-short';
        rows = await exactly();
      }
    }
    return { path, candidates: rows.map((r) => ({ ...r, similarity: Number(r.similarity) })) };
  });
};

/** The investigation's chunks nearest to the query, nearest first, by the retrieval rule (searchChunks). */
export const nearestChunks = async (
  db: Kysely<Database>,
  investigationId: string,
  query: number[],
  options: SearchOptions,
): Promise<Candidate[]> => (await searchChunks(db, investigationId, query, options)).candidates;
