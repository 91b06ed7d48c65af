/**
 * Writing a source's text as chunks, the one way every text comes in (an evidence item's content, an extracted
 * attachment or background document, a bulk import's line, a seed file): the source's status row goes back to
 * pending, its old chunks go (retrieval must not cite text the source no longer has), and the new chunks are
 * written without embeddings. The embedding worker embeds them many to a model request (./embedding-work.ts);
 * a text that gives no chunk is embedded at once (there is nothing to wait for).
 *
 * PDF pages: extraction separates pages with a form feed on a line of its own (PAGE_BREAK); each chunk records
 * the page it starts on. The chunker takes the form feed as the paragraph break it is, so the chunks are the same.
 */
import { sql, type Kysely } from 'kysely';
import type { Database, SourceType } from '#core/db/schema';
import { chunkText, normalizeText, type TextChunk } from './chunking';

/** How extraction separates a PDF's pages in the text it stores. */
export const PAGE_BREAK = '\n\f\n';

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
 * Where each page starts in the normalised text (chunking.ts's normalizeText joins paragraphs, and so pages, with
 * one space), from 1; empty for a text without page breaks.
 */
export const pageStarts = (text: string): number[] => {
  if (!text.includes('\f')) return [];
  const starts: number[] = [];
  let offset = 0;
  for (const page of text.split(/\n?\f\n?/)) {
    const normalized = normalizeText(page).text;
    starts.push(offset);
    if (normalized !== '') offset += normalized.length + 1;
  }
  return starts;
};

/** The page (from 1) holding offset `at` of the normalised text, or null without pages. */
export const pageAt = (starts: readonly number[], at: number): number | null => {
  if (starts.length === 0) return null;
  let page = 1;
  for (let i = 1; i < starts.length; i++) if (starts[i]! <= at) page = i + 1;
  return page;
};

export interface PreparedChunk extends TextChunk {
  page: number | null;
}

/** Pure: the chunks of a source's text, each with its page. */
export const prepareChunks = (text: string): PreparedChunk[] => {
  const starts = pageStarts(text);
  return chunkText(text).map((chunk) => ({ ...chunk, page: pageAt(starts, chunk.start) }));
};

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
