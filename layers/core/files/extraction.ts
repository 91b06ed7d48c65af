/**
 * Text extraction for a background document: read its file from storage, extract the text with the
 * format's library, chunk it, then store text and chunks and queue the document for embedding.
 * Every check comes before the one write, so a refused or failed extraction changes nothing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { chunkText } from '#core/embeddings/chunking';
import { ApiError, notFound } from '#core/errors';
import { detectFormat, EXTRACTION_LIMITS, signatureProblem, storableText } from './formats';
import { extractText, UnreadableFileError, UnsupportedCharsetError } from './extractors';
import type { FileReader } from './object-store';
import type { ExtractionReport } from './wire';
import { findStoredFile, storeExtraction } from './stored-files';

const unsupported = (message: string) => new ApiError(415, 'unsupported_file_type', message);
const unprocessable = (code: string, message: string) => new ApiError(422, code, message);

const MIB = 1024 * 1024;

export interface ExtractionDeps {
  db: Kysely<Database>;
  files: FileReader;
  limits?: { maxFileBytes: number; maxChunks: number };
}

export const extractBackgroundDocument = async (
  { db, files, limits = EXTRACTION_LIMITS }: ExtractionDeps,
  organizationId: string,
  documentId: string,
): Promise<ExtractionReport> => {
  const document = await findStoredFile(db, organizationId, 'background_document', documentId);
  if (!document) throw notFound('The background document');

  const decision = detectFormat({ contentType: document.content_type, fileName: document.file_name });
  if (!decision.ok) throw unsupported(decision.message);

  const read = await files.read(document.storage_key, limits.maxFileBytes);
  if (read.status === 'missing')
    throw unprocessable('file_missing', `The file of "${document.file_name}" is missing from storage; upload it again.`);
  if (read.status === 'too_large') {
    throw unprocessable(
      'file_too_large',
      `"${document.file_name}" is ${(read.sizeBytes / MIB).toFixed(1)} MiB; text is extracted from files up to ${limits.maxFileBytes / MIB} MiB.`,
    );
  }

  const problem = signatureProblem(decision.format, read.bytes);
  if (problem) throw unprocessable('unreadable_file', problem);
  let extracted;
  try {
    extracted = await extractText(decision.format, read.bytes, decision.charset);
  } catch (error) {
    if (error instanceof UnsupportedCharsetError) throw unsupported(error.message);
    if (error instanceof UnreadableFileError) throw unprocessable('unreadable_file', error.message);
    throw error;
  }

  const text = storableText(extracted.text);
  if (text === '') {
    throw unprocessable(
      'no_text',
      decision.format === 'pdf'
        ? 'The PDF holds no text layer (a scanned image, perhaps); text recognition (OCR) is not supported.'
        : 'The document holds no text.',
    );
  }
  const chunks = chunkText(text);
  if (chunks.length > limits.maxChunks) {
    throw unprocessable(
      'text_too_long',
      `The document's text (${text.length} characters, ${chunks.length} chunks) is longer than one document may be for the AI ` +
        `(${limits.maxChunks} chunks); split it into smaller documents.`,
    );
  }

  const stored = await storeExtraction(db, document, text);
  return {
    background_document_id: document.id,
    investigation_id: document.investigation_id,
    file_name: document.file_name,
    format: decision.format,
    characters: text.length,
    pages: extracted.pages,
    chunks: chunks.length,
    replaced_chunks: stored.replacedChunks,
    extraction_status: 'extracted',
    embedding_status: 'pending',
  };
};
