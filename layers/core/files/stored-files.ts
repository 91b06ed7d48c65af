/**
 * Data access for stored files: attachments and background documents, looked up only within the caller's
 * organization (another organization's file is simply not found), and the writes of an extraction: the text with
 * its chunks, or why there is none.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { writeSourceChunks } from '#core/embeddings/chunk-store';

export type FileKind = 'attachment' | 'background_document';

export interface StoredFile {
  kind: FileKind;
  id: string;
  investigation_id: string;
  /** the attachment's evidence item (null for a background document) */
  evidence_item_id: string | null;
  file_name: string;
  content_type: string;
  size_bytes: number;
  storage_key: string;
}

const TABLE = { attachment: 'attachments', background_document: 'background_documents' } as const;

const stored = (
  kind: FileKind,
  row: Omit<StoredFile, 'kind' | 'size_bytes' | 'evidence_item_id'> & { size_bytes: string | number; evidence_item_id?: string },
) => ({
  kind,
  ...row,
  evidence_item_id: row.evidence_item_id ?? null,
  size_bytes: Number(row.size_bytes),
});

/** An attachment or background document of an investigation of this organization, or undefined. */
export const findStoredFile = async (
  db: Kysely<Database>,
  organizationId: string,
  kind: FileKind,
  id: string,
): Promise<StoredFile | undefined> => {
  const columns = ['f.id', 'f.investigation_id', 'f.file_name', 'f.content_type', 'f.size_bytes', 'f.storage_key'] as const;
  const scoped = <T extends 'attachments' | 'background_documents'>(table: T) =>
    db
      .selectFrom(`${table} as f` as 'attachments as f')
      .innerJoin('investigations as i', 'i.id', 'f.investigation_id')
      .where('f.id', '=', id)
      .where('i.organization_id', '=', organizationId);
  const row =
    kind === 'attachment'
      ? await scoped('attachments')
          .select([...columns, 'f.evidence_item_id'])
          .executeTakeFirst()
      : await scoped('background_documents').select(columns).executeTakeFirst();
  return row && stored(kind, row);
};

export interface StoredExtraction {
  /** chunks of the previous text that were removed */
  replacedChunks: number;
  chunks: number;
}

/**
 * Stores a file's extracted text and its chunks (unembedded: the embedding worker embeds them), in one transaction.
 * The file's row is written first, so concurrent extractions of one file run one after the other; the previous
 * text's chunks go at once (retrieval must not cite text the file no longer has).
 */
export const storeExtraction = (
  db: Kysely<Database>,
  file: StoredFile,
  extracted: { text: string; pages: number | null },
): Promise<StoredExtraction> =>
  db.transaction().execute(async (trx) => {
    await trx
      .updateTable(TABLE[file.kind] as 'attachments')
      .set({ extracted_text: extracted.text, extraction_status: 'extracted', extraction_error: null, pages: extracted.pages })
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    const written = await writeSourceChunks(
      trx,
      file.kind === 'attachment'
        ? {
            investigation_id: file.investigation_id,
            source_type: 'attachment',
            source_id: file.id,
            evidence_item_id: file.evidence_item_id,
            background_document_id: null,
          }
        : {
            investigation_id: file.investigation_id,
            source_type: 'background_doc',
            source_id: file.id,
            evidence_item_id: null,
            background_document_id: file.id,
          },
      extracted.text,
    );
    return { replacedChunks: written.replaced, chunks: written.chunks };
  });

/** Records why a file gives no text; its item is then reported as failed, the rest of it still analysed. */
export const recordExtractionError = async (
  db: Kysely<Database>,
  file: Pick<StoredFile, 'kind' | 'id'>,
  message: string,
): Promise<void> => {
  await db
    .updateTable(TABLE[file.kind] as 'attachments')
    .set({ extraction_status: 'error', extraction_error: message })
    .where('id', '=', file.id)
    .execute();
};

/** Most attempts at a file's extraction: the ingestion queue delivers a message once more, which records the failure. */
export const MAX_EXTRACTION_ATTEMPTS = 3;

/**
 * Takes a file that arrived for extraction: marks it pending (uploaded) and counts the attempt. Undefined when there is
 * nothing to do — no such file (deleted meanwhile, or a key the service did not issue), already extracted (a
 * repeated event, or a file written with its text by an import) or given up. `attempts` is this attempt's number.
 */
export const claimArrivedFile = async (
  db: Kysely<Database>,
  kind: FileKind,
  id: string,
): Promise<(StoredFile & { attempts: number }) | undefined> => {
  const row = await db
    .updateTable(`${TABLE[kind]} as f` as 'attachments as f')
    .set({
      extraction_status: 'pending',
      uploaded_at: sql`coalesce(f.uploaded_at, now())`,
      extraction_attempts: sql`f.extraction_attempts + 1`,
    })
    .where('f.id', '=', id)
    .where('f.extraction_status', 'in', ['awaiting_upload', 'pending'])
    .returning(['f.id', 'f.investigation_id', 'f.file_name', 'f.content_type', 'f.size_bytes', 'f.storage_key', 'f.extraction_attempts'])
    .executeTakeFirst();
  if (!row) return undefined;
  const evidence =
    kind === 'attachment'
      ? await db.selectFrom('attachments').select('evidence_item_id').where('id', '=', id).executeTakeFirst()
      : undefined;
  const { extraction_attempts: attempts, ...file } = row;
  return { ...stored(kind, { ...file, ...(evidence && { evidence_item_id: evidence.evidence_item_id }) }), attempts };
};
