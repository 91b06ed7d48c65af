/**
 * Small, real files for the extraction tests, built in memory: a PDF written by hand (one text object
 * per line, a correct cross-reference table), a DOCX zipped with JSZip (what mammoth itself reads
 * DOCX with), and broken or unsupported files.
 */
import JSZip from 'jszip';

/** PDF string literal: backslash, parentheses escaped. */
const pdfString = (text: string): string => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** Words of `text` in lines of at most `width` characters (PDF readers drop text that runs off the page). */
const wrap = (text: string, width = 80): string[] =>
  text.split(' ').reduce<string[]>((lines, word) => {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
    return lines;
  }, []);

/** A valid PDF with one page per entry, each page holding its paragraphs in 12-point Helvetica, wrapped to fit. */
export const pdfFile = (pages: readonly (readonly string[])[]): Buffer => {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((lines, i) => {
    const content = `BT /F1 12 Tf 14 TL 72 720 Td ${lines
      .flatMap((p) => wrap(p))
      .map((l) => `${pdfString(l)} Tj T*`)
      .join(' ')} ET`;
    objects[pageIds[i]!] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`;
    objects[pageIds[i]! + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
};

const xmlText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A minimal valid DOCX (the three parts Word needs) with one paragraph per entry. */
export const docxFile = async (paragraphs: readonly string[]): Promise<Buffer> => {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
      paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlText(p)}</w:t></w:r></w:p>`).join('') +
      '</w:body></w:document>',
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
};

/** A PDF cut short: the header is right, the body and cross-reference table are gone. */
export const truncatedPdf = (): Buffer => pdfFile([['This document was cut short.']]).subarray(0, 120);

/** A zip that is not a Word document (no word/document.xml). */
export const zipWithoutDocument = async (): Promise<Buffer> => {
  const zip = new JSZip();
  zip.file('readme.txt', 'not a word document');
  return zip.generateAsync({ type: 'nodebuffer' });
};

/** The 8-byte PNG signature and a header chunk: an image, which has no text to extract. */
export const pngFile = (): Buffer => Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

export const CONTENT_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  text: 'text/plain',
  png: 'image/png',
} as const;
