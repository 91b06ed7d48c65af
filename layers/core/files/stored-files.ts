/**
 * Data access for stored files: attachments and background documents, looked up only within the
 * caller's organization (another organization's file is simply not found), and the write that
 * replaces a background document's extracted text and its chunks.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { writeSourceChunks } from '#core/embeddings/chunk-store';

export type FileKind = 'attachment' | 'background_document';

export interface StoredFile {
  kind: FileKind;
  id: string;
  investigation_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  storage_key: string;
}

const FILE_COLUMNS = ['f.id', 'f.investigation_id', 'f.file_name', 'f.content_type', 'f.size_bytes', 'f.storage_key'] as const;

/** An attachment or background document of an investigation of this organization, or undefined. */
export const findStoredFile = async (
  db: Kysely<Database>,
  organizationId: string,
  kind: FileKind,
  id: string,
): Promise<StoredFile | undefined> => {
  // both tables have these columns with the same types, so one query shape serves both
  const table = (kind === 'attachment' ? 'attachments' : 'background_documents') as 'background_documents';
  const row = await db
    .selectFrom(`${table} as f`)
    .innerJoin('investigations as i', 'i.id', 'f.investigation_id')
    .select(FILE_COLUMNS)
    .where('f.id', '=', id)
    .where('i.organization_id', '=', organizationId)
    .executeTakeFirst();
  return row && { kind, ...row, size_bytes: Number(row.size_bytes) };
};

export interface StoredExtraction {
  /** chunks of the previous text that were removed */
  replacedChunks: number;
  /** chunks of the new text, waiting for their embeddings */
  chunks: number;
}

/**
 * Stores a background document's extracted text and writes it as chunks (embeddings/chunk-store.ts), in one
 * transaction: the previous text's chunks (embedded or not) go at once — they describe text the document no longer
 * has, and retrieval must not cite them — and the new ones wait for the embedding work.
 */
export const storeExtraction = (db: Kysely<Database>, document: StoredFile, text: string): Promise<StoredExtraction> =>
  db.transaction().execute(async (trx) => {
    // first: locks the document row, so concurrent extractions of one document run one after the other
    await trx
      .updateTable('background_documents')
      .set({ extracted_text: text, extraction_status: 'extracted', extraction_error: null })
      .where('id', '=', document.id)
      .executeTakeFirstOrThrow();
    const written = await writeSourceChunks(
      trx,
      {
        investigation_id: document.investigation_id,
        source_type: 'background_doc',
        source_id: document.id,
        evidence_item_id: null,
        background_document_id: document.id,
      },
      text,
    );
    return { replacedChunks: written.replaced, chunks: written.chunks };
  });
