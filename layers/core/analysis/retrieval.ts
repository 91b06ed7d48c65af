/**
 * Semantic retrieval for an analysis: the investigation's chunks nearest to the query (pgvector
 * cosine distance), and which of them go into the AI's context. Background documents an
 * administrator excluded from the AI are never candidates.
 */
import { sql, type Kysely } from 'kysely';
import { config, ENV } from '#core/config';
import type { Database, SourceType } from '#core/db/schema';
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
   * passage answers it (Titan V2 and the twin's feature hashing alike), so the ranking and the
   * context limit do most of the choosing; the bands shown to investigators stay the spec's.
   */
  minSimilarity: 0.2,
  /**
   * when no candidate reaches the floor, this many of the closest are included all the same (and the
   * analysis is marked low_relevance): the model never gets an empty context while evidence exists, and a
   * few weak passages are less noise than a full context of them
   */
  lowRelevanceIncluded: 5,
  /** measured: recall@20 0.85 at 100 vs 0.71 at the default 40, for ~2 ms more (npm run bench -- retrieval) */
  efSearch: 100,
} as const;

export type InclusionRules = Pick<typeof RETRIEVAL, 'maxIncluded' | 'lowRelevanceIncluded'> & { minSimilarity: number };

/** The inclusion rules of this deployment: RETRIEVAL with the stage's floor (similarity-floor.ts). */
export const inclusionRules = (): InclusionRules => ({
  ...RETRIEVAL,
  minSimilarity: config()[ENV.retrievalMinSimilarity] ?? RETRIEVAL.minSimilarity,
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
  limit?: number;
  /** HNSW candidate list size: higher is better recall, a little slower (pgvector's default is 40) */
  efSearch?: number;
  /** exact search (no index): the ground truth the bench measures recall against */
  exact?: boolean;
}

/**
 * The investigation's chunks nearest to the query, nearest first. The HNSW index spans every
 * investigation, so a plain index scan filtered to one investigation could come back short; pgvector's
 * iterative scan keeps scanning until the limit is met (relaxed order, re-sorted here).
 */
export const nearestChunks = (
  db: Kysely<Database>,
  investigationId: string,
  query: number[],
  options: SearchOptions = {},
): Promise<Candidate[]> => {
  const { limit = RETRIEVAL.candidates, efSearch = RETRIEVAL.efSearch, exact = false } = options;
  const vector = toVectorLiteral(query);
  return db.transaction().execute(async (trx) => {
    if (exact) {
      await sql`set local enable_indexscan = off`.execute(trx);
    } else {
      await sql.raw(`set local hnsw.ef_search = ${Math.trunc(efSearch)}`).execute(trx);
      await sql`set local hnsw.iterative_scan = relaxed_order`.execute(trx);
    }
    const { rows } = await sql<Candidate & { distance: number }>`
      with nearest as materialized (
        select c.id as chunk_id, c.text, c.source_type, c.evidence_item_id, c.background_document_id,
               c.embedding <=> ${vector}::vector as distance
        from text_chunks c
        left join background_documents b on b.id = c.background_document_id
        where c.investigation_id = ${investigationId} and c.embedding is not null and coalesce(b.included_for_ai, true)
        order by c.embedding <=> ${vector}::vector
        limit ${limit}
      )
      select chunk_id, text, source_type, evidence_item_id, background_document_id, 1 - distance as similarity
      from nearest order by distance`.execute(trx);
    return rows.map((r) => ({ ...r, similarity: Number(r.similarity) }));
  });
};
