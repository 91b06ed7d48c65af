/**
 * Files as the API is told of them (pure): the type a file is declared as — the browser's own when the service reads
 * that type, else generic, so the service decides by the file's extension (and says why when it refuses one) — and
 * a size for people.
 */

/** The media types the service reads; any other `File.type` (browsers often give none, or an odd one) is sent as generic. */
const READABLE_TYPES = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'message/rfc822',
  'text/plain',
  'text/markdown',
  'text/csv',
]);

/** What the file picker offers (a hint only: the service decides, and says why when it refuses a file). */
export const ACCEPTED_FILES = `.pdf,.docx,.eml,.txt,.md,.csv,${[...READABLE_TYPES].join(',')}`;

/** The type to declare for a file: its own when the service reads that type, else generic, so the service decides by its extension. */
export const declaredType = (file: File): string => (READABLE_TYPES.has(file.type) ? file.type : 'application/octet-stream');

/** The file as the API's create requests declare it. */
export const declare = (file: File) => ({ file_name: file.name, content_type: declaredType(file), size_bytes: file.size });

/** "12.3 kB", "4 MB": a file's size for people. */
export const sizeText = (bytes: number): string => {
  if (bytes < 1000) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const [value, unit] = bytes < 1_000_000 ? [bytes / 1000, 'kB'] : [bytes / 1_000_000, 'MB'];
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`;
};
