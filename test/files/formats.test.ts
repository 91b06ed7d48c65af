/** The pure file rules: format detection, signatures, served content type, Content-Disposition. */
import fc from 'fast-check';
import { contentDisposition, detectFormat, parseMediaType, servedContentType, signatureProblem, storableText } from '#core/files/formats';
import { CONTENT_TYPES, docxFile, pdfFile, pngFile } from './fixtures';

describe('detectFormat', () => {
  it.each([
    ['application/pdf', 'report.bin', 'pdf'],
    ['Application/PDF', 'report.pdf', 'pdf'],
    [CONTENT_TYPES.docx, 'memo.docx', 'docx'],
    ['text/plain; charset=utf-8', 'notes', 'text'],
    ['text/markdown', 'notes.md', 'text'],
    ['text/csv', 'ledger.csv', 'text'],
    // a generic declared type: the file name decides
    ['application/octet-stream', 'Scan.PDF', 'pdf'],
    ['', 'memo.docx', 'docx'],
    ['binary/octet-stream', 'notes.txt', 'text'],
  ])('%s named %s is %s', (contentType, fileName, format) => {
    expect(detectFormat({ contentType, fileName })).toMatchObject({ ok: true, format });
  });

  it('keeps the declared charset for the text decoder', () => {
    expect(detectFormat({ contentType: 'text/plain; charset="ISO-8859-1"', fileName: 'a.txt' })).toEqual({
      ok: true,
      format: 'text',
      charset: 'iso-8859-1',
      generic: false,
      canonicalType: 'text/plain',
    });
  });

  it('names the type a generic upload is stored as, from its extension', () => {
    expect(detectFormat({ contentType: 'application/octet-stream', fileName: 'Mail from J. Doe.EML' })).toEqual({
      ok: true,
      format: 'email',
      charset: undefined,
      generic: true,
      canonicalType: 'message/rfc822',
    });
  });

  it.each([
    [CONTENT_TYPES.png, 'photo.png', 'a file of type image/png'],
    [CONTENT_TYPES.xlsx, 'ledger.xlsx', `a file of type ${CONTENT_TYPES.xlsx}`],
    ['application/msword', 'old.doc', 'a file of type application/msword'],
    // the declared type wins over a misleading name
    ['image/jpeg', 'photo.pdf', 'a file of type image/jpeg'],
    ['application/octet-stream', 'archive.zip', 'a file named "archive.zip"'],
  ])('refuses %s (%s) naming what is supported', (contentType, fileName, what) => {
    const decision = detectFormat({ contentType, fileName });
    expect(decision.ok).toBe(false);
    if (!decision.ok)
      expect(decision.message).toBe(
        `Text cannot be extracted from ${what}: only PDF, Word (.docx), e-mail (.eml) and plain text (.txt, .md, .csv) documents are supported.`,
      );
  });
});

describe('parseMediaType', () => {
  it('lower-cases the type and reads the charset parameter wherever it is', () => {
    expect(parseMediaType(' Text/Plain ; format=flowed; Charset=UTF-8')).toEqual({ essence: 'text/plain', charset: 'utf-8' });
    expect(parseMediaType('application/pdf')).toEqual({ essence: 'application/pdf', charset: undefined });
  });
});

describe('signatureProblem', () => {
  it('accepts real files of their format', async () => {
    expect(signatureProblem('pdf', pdfFile([['x']]))).toBeUndefined();
    expect(signatureProblem('docx', await docxFile(['x']))).toBeUndefined();
    expect(signatureProblem('text', pngFile())).toBeUndefined();
  });

  it('accepts a PDF header after some leading junk, as readers do', () => {
    expect(signatureProblem('pdf', Buffer.concat([Buffer.alloc(100, 0x20), pdfFile([['x']])]))).toBeUndefined();
  });

  it('refuses bytes that cannot be the declared format', () => {
    expect(signatureProblem('pdf', pngFile())).toBe('The file is not a PDF: it does not start with a PDF header.');
    expect(signatureProblem('pdf', new Uint8Array())).toBe('The file is not a PDF: it does not start with a PDF header.');
    expect(signatureProblem('docx', pdfFile([['x']]))).toBe('The file is not a Word (.docx) document: it is not a zip archive.');
  });

  it('reads a view into a larger buffer from its own offset', () => {
    const pdf = pdfFile([['x']]);
    const shared = Buffer.concat([Buffer.from('PK\u0003\u0004junk'), pdf]);
    expect(signatureProblem('pdf', new Uint8Array(shared.buffer, shared.byteOffset + 8, pdf.length))).toBeUndefined();
    expect(signatureProblem('docx', new Uint8Array(shared.buffer, shared.byteOffset + 8, pdf.length))).toBeDefined();
  });
});

describe('storableText', () => {
  it('drops NUL characters and surrounding blank space, keeping the rest', () => {
    expect(storableText('\n  a\u0000b\tc \n\n')).toBe('ab\tc');
  });
});

describe('servedContentType', () => {
  it('keeps a well-formed type and its charset', () => {
    expect(servedContentType('Application/PDF')).toBe('application/pdf');
    expect(servedContentType('text/plain; charset=UTF-8')).toBe('text/plain; charset=utf-8');
  });

  it('replaces a malformed type with a neutral one', () => {
    expect(servedContentType('not a type')).toBe('application/octet-stream');
    expect(servedContentType('text/html\r\nx-evil: 1')).toBe('application/octet-stream');
    expect(servedContentType('')).toBe('application/octet-stream');
  });
});

describe('contentDisposition', () => {
  it('shows safe types inline and sends anything else as a download', () => {
    expect(contentDisposition('scan.pdf', 'application/pdf')).toBe(`inline; filename="scan.pdf"; filename*=UTF-8''scan.pdf`);
    expect(contentDisposition('notes.txt', 'text/plain; charset=utf-8')).toMatch(/^inline;/);
    expect(contentDisposition('page.html', 'text/html')).toMatch(/^attachment;/);
    expect(contentDisposition('logo.svg', 'image/svg+xml')).toMatch(/^attachment;/);
    expect(contentDisposition('memo.docx', CONTENT_TYPES.docx)).toMatch(/^attachment;/);
  });

  it('gives an ASCII fallback and the exact name, percent-encoded', () => {
    expect(contentDisposition('Résumé "final" (2).pdf', 'application/pdf')).toBe(
      `inline; filename="Resume _final_ (2).pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%20%282%29.pdf`,
    );
    expect(contentDisposition('  ', 'application/pdf')).toBe(`inline; filename="file"; filename*=UTF-8''file`);
  });

  it('always yields a header value that parses back to the file name', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme' }).filter((s) => s.trim() !== ''),
        (name) => {
          const value = contentDisposition(name, 'application/pdf');
          // a header value: printable ASCII only
          expect(value).toMatch(/^[\x20-\x7e]+$/);
          const fallback = /filename="((?:[^"\\])*)"/.exec(value)?.[1];
          expect(fallback).toBeDefined();
          const exact = /filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]+)$/.exec(value)?.[1];
          expect(exact).toBeDefined();
          expect(decodeURIComponent(exact!)).toBe(name);
        },
      ),
    );
  });
});
