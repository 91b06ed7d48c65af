/**
 * Text extraction of a stored file (an attachment or a background document): read it from storage, extract the
 * text with the format's library, chunk it. `extractStoredFile` says what came out, or why nothing can (a refusal
 * the user can act on: another format, a damaged or empty file); the ingestion worker records that on the file
 * when it arrives, and POST /api/background/extract-text answers it (415 or 422). Every check comes before the one
 * write (stored-files.ts storeExtraction), so a refused or failed extraction changes nothing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { PAGE_BREAK, prepareChunks } from '#core/embeddings/chunking';
import { DomainError, notFound } from '#core/errors';
import { detectFormat, EXTRACTION_LIMITS, signatureProblem, storableText, type TextFormat } from './formats';
import { extractText, UnreadableFileError, UnsupportedCharsetError } from './extractors';
import type { FileReader } from './object-store';
import type { ExtractionReport } from './wire';
import { findStoredFile, storeExtraction, type StoredFile } from './stored-files';

const MIB = 1024 * 1024;

export interface ExtractionLimits {
  maxFileBytes: number;
  maxChunks: number;
}

/** Why a file gives no text: `unsupported` (another format: 415) or one of the unprocessable kinds (422). */
type ExtractionRefusal = {
  code: 'unsupported_file_type' | 'file_missing' | 'file_too_large' | 'unreadable_file' | 'no_text' | 'text_too_long';
  message: string;
};

export type ExtractionOutcome =
  | { ok: true; format: TextFormat; text: string; pages: number | null; chunks: number }
  | ({ ok: false } & ExtractionRefusal);

const refuse = (code: ExtractionRefusal['code'], message: string): ExtractionOutcome => ({ ok: false, code, message });

/** Reads and extracts the file; a failure of storage itself (not the file's fault) is thrown, to be retried. */
export const extractStoredFile = async (
  files: FileReader,
  file: Pick<StoredFile, 'storage_key' | 'content_type' | 'file_name'>,
  limits: ExtractionLimits = EXTRACTION_LIMITS,
): Promise<ExtractionOutcome> => {
  const decision = detectFormat({ contentType: file.content_type, fileName: file.file_name });
  if (!decision.ok) return refuse('unsupported_file_type', decision.message);

  const read = await files.read(file.storage_key, limits.maxFileBytes);
  if (read.status === 'missing') return refuse('file_missing', `The file of "${file.file_name}" is missing from storage; upload it again.`);
  if (read.status === 'too_large')
    return refuse(
      'file_too_large',
      `"${file.file_name}" is ${(read.sizeBytes / MIB).toFixed(1)} MiB; text is extracted from files up to ${limits.maxFileBytes / MIB} MiB.`,
    );

  const problem = signatureProblem(decision.format, read.bytes);
  if (problem) return refuse('unreadable_file', problem);
  let extracted;
  try {
    extracted = await extractText(decision.format, read.bytes, decision.charset);
  } catch (error) {
    if (error instanceof UnsupportedCharsetError) return refuse('unsupported_file_type', error.message);
    if (error instanceof UnreadableFileError) return refuse('unreadable_file', error.message);
    throw error;
  }

  const text = storableText(extracted.text);
  if (text.replaceAll(PAGE_BREAK, '').trim() === '') {
    return refuse(
      'no_text',
      decision.format === 'pdf'
        ? 'The PDF holds no text layer (a scanned image, perhaps); text recognition (OCR) is not supported.'
        : 'The document holds no text.',
    );
  }
  const chunks = prepareChunks(text).length;
  if (chunks > limits.maxChunks) {
    return refuse(
      'text_too_long',
      `The document's text (${text.length} characters, ${chunks} chunks) is longer than one document may be for the AI ` +
        `(${limits.maxChunks} chunks); split it into smaller documents.`,
    );
  }
  return { ok: true, format: decision.format, text, pages: extracted.pages, chunks };
};

/** A refusal as an error: another format is unsupported, anything else about the file unprocessable. */
const refusalError = (refusal: ExtractionRefusal): DomainError =>
  new DomainError(refusal.code === 'unsupported_file_type' ? 'unsupported' : 'unprocessable', refusal.code, refusal.message);

export interface ExtractionDeps {
  db: Kysely<Database>;
  files: FileReader;
  /** wakes the embedding worker after the new chunks are written */
  wake: (investigationId: string) => Promise<unknown>;
  limits?: ExtractionLimits;
}

/** POST /api/background/extract-text: extracts (again) a background document of the organization, synchronously. */
export const extractBackgroundDocument = async (
  { db, files, wake, limits }: ExtractionDeps,
  organizationId: string,
  documentId: string,
): Promise<ExtractionReport> => {
  const document = await findStoredFile(db, organizationId, 'background_document', documentId);
  if (!document) throw notFound('The background document');
  const outcome = await extractStoredFile(files, document, limits);
  if (!outcome.ok) throw refusalError(outcome);
  const stored = await storeExtraction(db, document, outcome);
  await wake(document.investigation_id);
  return {
    background_document_id: document.id,
    investigation_id: document.investigation_id,
    file_name: document.file_name,
    format: outcome.format,
    characters: outcome.text.length,
    pages: outcome.pages,
    chunks: outcome.chunks,
    replaced_chunks: stored.replacedChunks,
    extraction_status: 'extracted',
    embedding_status: 'pending',
  };
};
