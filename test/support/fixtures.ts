import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { toVectorLiteral } from '#core/embeddings/sources';

/** An evidence item of an investigation and its embedding source: the rows a test's chunks of it hang from. */
export const evidenceSource = async (db: Kysely<Database>, investigationId: string, title: string) => {
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
      .values({ investigation_id: investigationId, source_type: 'content', source_id: evidenceItemId })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  return { evidenceItemId, embeddingSourceId };
};

/** Embedded chunks of one new evidence item of the investigation, inserted in batches (chunk_index in order). */
export const addChunks = async (
  db: Kysely<Database>,
  investigationId: string,
  chunks: readonly { text: string; embedding: number[] }[],
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
