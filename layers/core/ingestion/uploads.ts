/**
 * Pure rules of the ways files come in: which files are taken, how large, where each is stored, how long its
 * upload may take. No I/O here (presign.ts signs the URLs).
 */
import { FILE_PREFIXES } from '#manifest/runtime-names';
import { detectFormat, EXTRACTION_LIMITS, SUPPORTED_FORMATS_TEXT, type TextFormat } from '#core/files/formats';

export const UPLOAD_LIMITS = {
  /** the largest file whose text is extracted: a larger one would be stored and never analysed */
  maxFileBytes: EXTRACTION_LIMITS.maxFileBytes,
  acceptedText: SUPPORTED_FORMATS_TEXT,
  /** how long an upload URL is valid: long enough for a slow connection, short enough not to be shared */
  urlSeconds: 900,
  /** after the URL expires, how long the file may still take to be reported as arrived before it counts as missing */
  graceSeconds: 300,
} as const;

export const IMPORT_LIMITS = {
  /** a whole matter as one file: 10,000 documents with their text inline is ~100 MB */
  maxFileBytes: 1024 * 1024 * 1024,
  urlSeconds: 3600,
  /** the errors an import keeps and shows (its lines_failed counts them all) */
  errorsShown: 100,
} as const;

export type FileAcceptance = { ok: true; format: TextFormat; contentType: string } | { ok: false; message: string };

/**
 * Whether a declared file is taken, and the content type its upload is signed for: the declared one, or — when it
 * says nothing (application/octet-stream) — the one its extension names, so the stored file tells the viewer what it is.
 */
export const acceptFile = (file: { file_name: string; content_type: string }): FileAcceptance => {
  const decision = detectFormat({ contentType: file.content_type, fileName: file.file_name });
  if (!decision.ok) return decision;
  return { ok: true, format: decision.format, contentType: decision.generic ? decision.canonicalType : file.content_type.trim() };
};

/** Where an evidence item's attachment is stored (the ingestion queue hears of it by the org/ prefix). */
export const attachmentKey = (ids: { organizationId: string; investigationId: string; attachmentId: string }, fileName: string): string =>
  `${FILE_PREFIXES.evidence}${ids.organizationId}/inv/${ids.investigationId}/attachments/${ids.attachmentId}/${fileName}`;

/** Where a background document is stored. */
export const backgroundDocumentKey = (
  ids: { organizationId: string; investigationId: string; documentId: string },
  fileName: string,
): string => `${FILE_PREFIXES.evidence}${ids.organizationId}/inv/${ids.investigationId}/background/${ids.documentId}/${fileName}`;

/** Where a bulk import's file is stored (the imports queue hears of it by the imports/ prefix). */
export const importKey = (importId: string): string => `${FILE_PREFIXES.imports}${importId}`;

/** When an upload issued at `issuedAt` counts as never arrived. */
export const uploadDeadline = (issuedAt: Date, urlSeconds: number = UPLOAD_LIMITS.urlSeconds): Date =>
  new Date(issuedAt.getTime() + (urlSeconds + UPLOAD_LIMITS.graceSeconds) * 1000);
