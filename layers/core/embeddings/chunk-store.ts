/**
 * Writing a source's text as chunks, the one way every text comes in (an evidence item's content, an extracted
 * attachment or background document, a bulk import's line, a seed file): the source's status row goes back to
 * pending, its old chunks go (retrieval must not cite text the source no longer has), and the new chunks are
 * written without embeddings. The embedding worker embeds them many to a model request (./embedding-work.ts);
 * a text that gives no chunk is embedded at once (there is nothing to wait for).
 * Each chunk records where it sits in the source's normalised text and the PDF page it starts on (chunking.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Database, SourceType } from '#core/db/schema';
import { prepareChunks } from './chunking';

/** Unembedded chunks per insert statement (each carries up to ~800 characters of text). */
const INSERT_BATCH = 100;

export interface SourceToWrite {
  investigation_id: string;
  source_type: SourceType;
  /** the evidence item (content), attachment or background document */
  source_id: string;
  /** exactly one of these: the item or document the chunks belong to */
  evidence_item_id: string | null;
  background_document_id: string | null;
}

export interface WrittenSource {
  embedding_source_id: string;
  chunks: number;
  /** chunks of the previous text that were removed */
  replaced: number;
}

/**
 * Replaces the source's chunks with those of `text`, unembedded, and marks the source pending (attempts reset),
 * in the caller's transaction. The source row is written first, so concurrent writers of one source queue on it.
 */
export const writeSourceChunks = async (trx: Kysely<Database>, source: SourceToWrite, text: string): Promise<WrittenSource> => {
  const chunks = prepareChunks(text);
  const row = await trx
    .insertInto('embedding_sources')
    .values({ ...source, status: chunks.length === 0 ? 'embedded' : 'pending', attempts: 0, error_message: null })
    .onConflict((oc) =>
      oc.columns(['source_type', 'source_id']).doUpdateSet((eb) => ({
        status: eb.ref('excluded.status'),
        attempts: 0,
        error_message: null,
        evidence_item_id: eb.ref('excluded.evidence_item_id'),
        background_document_id: eb.ref('excluded.background_document_id'),
        updated_at: sql`now()`,
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  const removed = await trx.deleteFrom('text_chunks').where('embedding_source_id', '=', row.id).executeTakeFirst();
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    await trx
      .insertInto('text_chunks')
      .values(
        chunks.slice(i, i + INSERT_BATCH).map((chunk) => ({
          investigation_id: source.investigation_id,
          embedding_source_id: row.id,
          source_type: source.source_type,
          evidence_item_id: source.evidence_item_id,
          background_document_id: source.background_document_id,
          chunk_index: chunk.index,
          text: chunk.text,
          token_count: chunk.tokenCount,
          char_start: chunk.start,
          char_end: chunk.end,
          page: chunk.page,
          embedding: null,
        })),
      )
      .execute();
  }
  return { embedding_source_id: row.id, chunks: chunks.length, replaced: Number(removed.numDeletedRows) };
};
