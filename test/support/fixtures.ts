import type { Kysely } from 'kysely';
import { DEFAULT_AI_MODELS } from '#core/config';
import type { Database } from '#core/db/schema';
import { lshBands, shinglesOf } from '#core/embeddings/near-duplicates';
import { toVectorLiteral } from '#core/embeddings/sources';

/**
 * An evidence item of an investigation and its embedding source: the rows a test's chunks of it hang from. The source
 * is embedded unless said otherwise (its readiness is read from it: ingestion/readiness.ts).
 */
export const evidenceSource = async (
  db: Kysely<Database>,
  investigationId: string,
  title: string,
  status: 'embedded' | 'pending' = 'embedded',
) => {
  const evidenceItemId = (
    await db
      .insertInto('evidence_items')
      .values({ investigation_id: investigationId, title, content: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const embeddingSourceId = (
    await db
      .insertInto('embedding_sources')
      .values({
        investigation_id: investigationId,
        source_type: 'content',
        source_id: evidenceItemId,
        evidence_item_id: evidenceItemId,
        status,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  return { evidenceItemId, embeddingSourceId };
};

/**
 * Embedded chunks (by the configured model) of one new evidence item of the investigation, inserted in batches (chunk_index in order):
 * in the HNSW graph, or (`placed: false`) with their LSH keys, waiting to be placed (chunk-claims.ts placeStoredVectors).
 */
export const addChunks = async (
  db: Kysely<Database>,
  investigationId: string,
  chunks: readonly { text: string; embedding: number[] }[],
  { placed = true }: { placed?: boolean } = {},
) => {
  const { evidenceItemId, embeddingSourceId } = await evidenceSource(db, investigationId, 'Item');
  for (let from = 0; from < chunks.length; from += 200) {
    await db
      .insertInto('text_chunks')
      .values(
        chunks.slice(from, from + 200).map(({ text, embedding }, i) => ({
          investigation_id: investigationId,
          embedding_source_id: embeddingSourceId,
          source_type: 'content' as const,
          evidence_item_id: evidenceItemId,
          chunk_index: from + i,
          text,
          embedding: toVectorLiteral(embedding),
          embedding_model: DEFAULT_AI_MODELS.embedding,
          // in the HNSW graph, as the embedding work leaves a stored vector once it has caught up
          indexed: placed,
          lsh_bands: placed ? null : lshBands(shinglesOf(text)),
        })),
      )
      .execute();
  }
};

/**
 * A generated analysis written straight to the database: feedback needs an analysis with output, not
 * another model call (the AI quota is 50 calls a minute per region, and a twin's start-up sweep already
 * spends most of one).
 */
export const storedAnalysis = async (db: Kysely<Database>, investigationId: string) =>
  (
    await db
      .insertInto('analyses')
      .values({
        investigation_id: investigationId,
        analysis_type: 'summary',
        generation_status: 'complete',
        generated_at: new Date(),
        validation_status: 'valid',
        result: JSON.stringify({
          summary: 'Two payments to one supplier.',
          findings: [{ statement: 'Paid twice.', citations: [] }],
          evidence_gaps: [],
        }),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

/**
 * `count` chunks of one new evidence item waiting for their embeddings (its source pending), as a writer leaves them
 * (embeddings/chunk-store.ts), inserted in batches: short distinct texts, `text(i)` if given. Returns the item and source.
 */
export const addWaitingChunks = async (
  db: Kysely<Database>,
  investigationId: string,
  count: number,
  text: (i: number) => string = (i) => `Ledger line ${i}: payment ${i * 37} approved by director ${i % 11}.`,
) => {
  const { evidenceItemId, embeddingSourceId } = await evidenceSource(db, investigationId, 'Ledger', 'pending');
  for (let from = 0; from < count; from += 500) {
    await db
      .insertInto('text_chunks')
      .values(
        Array.from({ length: Math.min(500, count - from) }, (_, k) => ({
          investigation_id: investigationId,
          embedding_source_id: embeddingSourceId,
          source_type: 'content' as const,
          evidence_item_id: evidenceItemId,
          chunk_index: from + k,
          text: text(from + k),
          embedding: null,
        })),
      )
      .execute();
  }
  return { evidenceItemId, embeddingSourceId };
};
