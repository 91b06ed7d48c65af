/**
 * Pure rules about stored files: which text format a file is (from its declared content type, or its
 * file name when the type says nothing), whether its bytes look like that format, how a browser is
 * told to show it, and the limits of text extraction. No I/O here.
 */

import { ifUsed } from '#core/if-used';

export type TextFormat = 'pdf' | 'docx' | 'text' | 'email';

const DOCX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Media types (lower case, without parameters) read by each extractor. */
const FORMAT_BY_TYPE: Record<string, TextFormat> = {
  'application/pdf': 'pdf',
  [DOCX_CONTENT_TYPE]: 'docx',
  'text/plain': 'text',
  'text/markdown': 'text',
  'text/csv': 'text',
  'message/rfc822': 'email',
};

/** By extension, with the media type a file of it is stored as when its uploader declared none. */
const BY_EXTENSION: Record<string, { format: TextFormat; type: string }> = {
  pdf: { format: 'pdf', type: 'application/pdf' },
  docx: { format: 'docx', type: DOCX_CONTENT_TYPE },
  txt: { format: 'text', type: 'text/plain' },
  md: { format: 'text', type: 'text/markdown' },
  csv: { format: 'text', type: 'text/csv' },
  eml: { format: 'email', type: 'message/rfc822' },
};

/** Declared types that say nothing about the content: the file name decides then. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/x-download']);

export const SUPPORTED_FORMATS_TEXT = 'PDF, Word (.docx), e-mail (.eml) and plain text (.txt, .md, .csv)';

export interface MediaType {
  /** type/subtype in lower case */
  essence: string;
  charset: string | undefined;
}

/** Parses a Content-Type value: `text/plain; charset=UTF-8` → { essence: 'text/plain', charset: 'utf-8' }. */
export const parseMediaType = (value: string): MediaType => {
  const [essence = '', ...params] = value.split(';');
  const charset = params.map((p) => p.trim().match(/^charset\s*=\s*"?([^";]+)"?$/i)?.[1]).find((c) => c !== undefined);
  return { essence: essence.trim().toLowerCase(), charset: charset?.trim().toLowerCase() };
};

const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};

export type FormatDecision =
  | {
      ok: true;
      format: TextFormat;
      charset: string | undefined;
      /** the declared type said nothing (application/octet-stream): the file name's extension decided, and this is its type */
      generic: boolean;
      canonicalType: string;
    }
  | { ok: false; message: string };

/** Which extractor reads this file, or why none does. The declared type wins over the file name. */
export const detectFormat = (file: { contentType: string; fileName: string }): FormatDecision => {
  const { essence, charset } = parseMediaType(file.contentType);
  const generic = GENERIC_TYPES.has(essence);
  const byExtension = generic ? BY_EXTENSION[extensionOf(file.fileName)] : undefined;
  const format = generic ? byExtension?.format : FORMAT_BY_TYPE[essence];
  if (format) return { ok: true, format, charset, generic, canonicalType: byExtension?.type ?? essence };
  const what = GENERIC_TYPES.has(essence) ? `a file named "${file.fileName}"` : `a file of type ${essence}`;
  return { ok: false, message: `Text cannot be extracted from ${what}: only ${SUPPORTED_FORMATS_TEXT} documents are supported.` };
};

const PDF_SIGNATURE = /* @__PURE__ */ ifUsed(() => Buffer.from('%PDF-', 'latin1'));
const ZIP_SIGNATURE = /* @__PURE__ */ ifUsed(() => Buffer.from([0x50, 0x4b, 0x03, 0x04]));

/**
 * Why these bytes cannot be the declared format (undefined when they may be). A PDF's header may
 * follow up to 1 KiB of junk (readers accept that); a DOCX is a zip archive.
 */
export const signatureProblem = (format: TextFormat, bytes: Uint8Array): string | undefined => {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'pdf' && data.subarray(0, 1024).indexOf(PDF_SIGNATURE) < 0)
    return 'The file is not a PDF: it does not start with a PDF header.';
  if (format === 'docx' && !data.subarray(0, 4).equals(ZIP_SIGNATURE))
    return 'The file is not a Word (.docx) document: it is not a zip archive.';
  return undefined;
};

/** Text as PostgreSQL can store it: no NUL characters (text columns cannot hold them), no surrounding blank space. */
export const storableText = (text: string): string => text.replaceAll('\u0000', '').trim();

export const EXTRACTION_LIMITS = {
  /** largest file read (bytes); the function has 1 GB of memory and a parsed PDF takes several times its size */
  maxFileBytes: 20 * 1024 * 1024,
  /**
   * most chunks one document may give. The embedding sweeper embeds a source's chunks in one run of
   * at most 240 s, one model request per chunk, within the quota of 50 requests per minute per region
   * (shared with analyses): a source much larger never finishes. 200 chunks ≈ 140,000 characters.
   */
  maxChunks: 200,
} as const;

// ---- viewing ---------------------------------------------------------------------------------

/** Seconds a presigned view URL stays valid: long enough for a viewer's range requests, short enough not to be shared. */
export const VIEW_URL_EXPIRY_SECONDS = 300;

/**
 * Types a browser may render in the page. Anything else (HTML, SVG, scripts, office files) is sent
 * as a download, so a stored file can never run script when opened.
 */
const INLINE_TYPES = new Set([
  'application/pdf',
  'text/plain',
  'text/csv',
  'text/markdown',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'audio/mpeg',
  'audio/wav',
  'video/mp4',
]);

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** The Content-Type to serve: the stored one when it is a well-formed media type, else a neutral binary type. */
export const servedContentType = (stored: string): string => {
  const { essence, charset } = parseMediaType(stored);
  if (!MEDIA_TYPE.test(essence)) return 'application/octet-stream';
  return charset && /^[a-z0-9_.:-]+$/.test(charset) ? `${essence}; charset=${charset}` : essence;
};

/** RFC 5987 value: UTF-8, percent-encoded, including the characters encodeURIComponent leaves alone but the grammar forbids. */
const extValue = (text: string): string =>
  encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Content-Disposition for a stored file (RFC 6266): `inline` for types a browser shows safely,
 * `attachment` otherwise; an ASCII fallback name for old clients and the exact name in `filename*`.
 */
export const contentDisposition = (fileName: string, contentType: string): string => {
  const kind = INLINE_TYPES.has(parseMediaType(contentType).essence) ? 'inline' : 'attachment';
  const name = fileName.trim() === '' ? 'file' : fileName;
  const fallback = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${extValue(name)}`;
};
