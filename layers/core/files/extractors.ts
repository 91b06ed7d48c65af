/**
 * Text out of a file's bytes, one well-kept library per format:
 * - PDF: unpdf (PDF.js, Mozilla's reader, in a build for serverless runtimes: no worker, no canvas);
 * - DOCX: mammoth (raw text of the document body, paragraphs separated by a blank line);
 * - e-mail (.eml, RFC 822/MIME): postal-mime — the headers a reader needs (from, to, cc, date, subject), the text body
 *   (or the HTML body's text), and the names of its attachments;
 * - plain text: the platform's TextDecoder, strict, in the declared charset (UTF-8 by default).
 * Each library is loaded on first use, so a cold start pays only for the format it reads.
 * A file the library cannot read throws UnreadableFileError with a message for the user.
 */
import { PAGE_BREAK } from '#core/embeddings/chunking';
import type { TextFormat } from './formats';

export interface Extracted {
  text: string;
  /** page count, for formats that have pages (PDF) */
  pages: number | null;
}

export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
}

export class UnsupportedCharsetError extends Error {
  override readonly name = 'UnsupportedCharsetError';
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const extractPdf = async (bytes: Uint8Array): Promise<Extracted> => {
  const { getDocumentProxy, extractText } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js takes ownership of the buffer it is given: hand it a copy; verbosity 0 keeps its warnings out of the logs
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') throw new UnreadableFileError('The PDF is password-protected; upload a copy without a password.');
    throw new UnreadableFileError(`The PDF could not be read (${reason(error)}); it may be damaged or incomplete.`);
  }
  try {
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    // a form feed on a line of its own between pages: a paragraph break to the chunker, and how it numbers pages
    return { text: text.join(PAGE_BREAK), pages: totalPages };
  } catch (error) {
    throw new UnreadableFileError(`The PDF's text could not be read (${reason(error)}); it may be damaged.`);
  } finally {
    await pdf.loadingTask.destroy();
  }
};

const extractDocx = async (bytes: Uint8Array): Promise<Extracted> => {
  const { default: mammoth } = await import('mammoth');
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return { text: value, pages: null };
  } catch (error) {
    throw new UnreadableFileError(`The Word document could not be read (${reason(error)}); it may be damaged or not a .docx file.`);
  }
};

const addresses = (list: { name?: string; address?: string }[] | undefined): string =>
  (list ?? []).map((a) => (a.name ? `${a.name} <${a.address ?? ''}>` : (a.address ?? ''))).join(', ');

/** An HTML body's text, for a message without a plain-text part: tags out, block ends as line breaks, entities read. */
const htmlText = (html: string): string =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<\/(p|div|li|tr|h[1-6])>|<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

const extractEmail = async (bytes: Uint8Array): Promise<Extracted> => {
  const { default: PostalMime } = await import('postal-mime');
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(bytes);
  } catch (error) {
    throw new UnreadableFileError(`The e-mail could not be read (${reason(error)}); it may be damaged or not an .eml file.`);
  }
  const header = [
    ['From', addresses(email.from ? [email.from] : [])],
    ['To', addresses(email.to)],
    ['Cc', addresses(email.cc)],
    ['Date', email.date ?? ''],
    ['Subject', email.subject ?? ''],
  ]
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  const body = email.text ?? (email.html ? htmlText(email.html) : '');
  const attached = email.attachments.map((a) => a.filename).filter((name): name is string => Boolean(name));
  const parts = [header, body, attached.length > 0 ? `Attachments: ${attached.join(', ')}` : ''].filter((part) => part.trim() !== '');
  return { text: parts.join('\n\n'), pages: null };
};

const decoderFor = (charset: string) => {
  try {
    return new TextDecoder(charset, { fatal: true });
  } catch {
    throw new UnsupportedCharsetError(`The text's character set "${charset}" is not supported.`);
  }
};

const extractPlain = (bytes: Uint8Array, charset = 'utf-8'): Extracted => {
  const decoder = decoderFor(charset);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new UnreadableFileError(`The file is not valid ${charset.toUpperCase()} text.`);
  }
  // a NUL byte does not occur in text: this is a binary file labelled as text
  if (text.includes('\u0000')) throw new UnreadableFileError('The file is labelled as text but holds binary data.');
  return { text, pages: null };
};

export const extractText = (format: TextFormat, bytes: Uint8Array, charset?: string): Promise<Extracted> => {
  switch (format) {
    case 'pdf':
      return extractPdf(bytes);
    case 'docx':
      return extractDocx(bytes);
    case 'email':
      return extractEmail(bytes);
    case 'text':
      return Promise.resolve().then(() => extractPlain(bytes, charset));
  }
};
