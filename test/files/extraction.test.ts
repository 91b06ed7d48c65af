/**
 * Background-document text extraction on the database (PGlite, or PostgreSQL with TEST_DATABASE_URL),
 * with real PDF, DOCX and text files served by an in-memory file reader: what is stored, chunked and
 * queued, how a re-extraction replaces the old chunks, that the sweeper then embeds them, and that
 * every refusal changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_AI_MODELS } from '#core/config';
import { chunkText } from '#core/embeddings/chunking';
import { sweepEmbeddings } from '#core/embeddings/sweeper';
import { toVectorLiteral } from '#core/embeddings/sources';
import { extractBackgroundDocument } from '#core/files/extraction';
import type { FileReader } from '#core/files/object-store';
import { extractionReportSchema } from '#core/files/wire';
import { DomainError } from '#core/errors';
import { embedText } from '../../lib/twin/bedrock/text';
import { answerOf } from '../support/answer-of';
import { useTestDatabase } from '../support/db';
import { CONTENT_TYPES, docxFile, pdfFile, pngFile, truncatedPdf, zipWithoutDocument } from './fixtures';

const db = useTestDatabase();

/** The bucket: storage key → bytes. */
const bucket = new Map<string, Uint8Array>();
const files: FileReader = {
  read: async (key, maxBytes) => {
    const bytes = bucket.get(key);
    if (!bytes) return { status: 'missing' };
    return bytes.length > maxBytes ? { status: 'too_large', sizeBytes: bytes.length } : { status: 'ok', bytes };
  },
};

let orgA: string;
let orgB: string;
let investigationA: string;

const newOrg = async (name: string) => {
  const org = await db
    .insertInto('organizations')
    .values({ name: `${name} ${randomUUID()}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const inv = await db
    .insertInto('investigations')
    .values({ organization_id: org.id, title: `${name} inquiry` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { orgId: org.id, investigationId: inv.id };
};

beforeAll(async () => {
  ({ orgId: orgA, investigationId: investigationA } = await newOrg('Alpha'));
  ({ orgId: orgB } = await newOrg('Beta'));
});

/** A background document of investigation A whose file holds these bytes (pending extraction). */
const addDocument = async (fileName: string, contentType: string, bytes: Uint8Array | undefined) => {
  const key = `org/${orgA}/background/${randomUUID()}/${fileName}`;
  if (bytes) bucket.set(key, bytes);
  const row = await db
    .insertInto('background_documents')
    .values({
      investigation_id: investigationA,
      title: fileName,
      file_name: fileName,
      content_type: contentType,
      size_bytes: bytes?.length ?? 0,
      storage_key: key,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
};

/** Investigations whose embedding worker the extraction woke, in order. */
const woken: string[] = [];

const extract = (documentId: string, organizationId = orgA, limits?: { maxFileBytes: number; maxChunks: number }) =>
  extractBackgroundDocument({ db, files, wake: async (id) => void woken.push(id), ...(limits && { limits }) }, organizationId, documentId);

const documentRow = (id: string) => db.selectFrom('background_documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sourceRow = (id: string) => db.selectFrom('embedding_sources').selectAll().where('source_id', '=', id).executeTakeFirst();
const chunkRows = (id: string) =>
  db.selectFrom('text_chunks').selectAll().where('background_document_id', '=', id).orderBy('chunk_index').execute();

/** Everything an extraction could touch, to show a refusal left it alone. */
const state = async (id: string) => ({ document: await documentRow(id), source: await sourceRow(id), chunks: await chunkRows(id) });

/** Runs `fn`, which must fail with this status and code; returns the error's message. */
const refused = async (fn: () => Promise<unknown>, status: number, code: string): Promise<string> => {
  const error = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect(answerOf(error)).toMatchObject({ status, code });
  return (error as DomainError).message;
};

const POLICY = [
  'Procurement policy 7.2. Every vendor payment above 10,000 needs two approvals from different departments.',
  'Section 4 (exceptions): emergency purchases may be approved by the regional director alone, and must be reviewed by internal audit within 30 days.',
];

describe('extraction of each supported format', () => {
  it('reads a two-page PDF: text, pages, chunks stored unembedded, source queued', async () => {
    const id = await addDocument('policy.pdf', CONTENT_TYPES.pdf, pdfFile([[POLICY[0]!], [POLICY[1]!]]));
    const report = await extract(id);

    expect(extractionReportSchema.parse(report)).toEqual(report);
    const row = await documentRow(id);
    // the PDF's lines are wrapped: compare with blank space collapsed
    expect(row.extracted_text!.replace(/\s+/g, ' ')).toBe(`${POLICY[0]} ${POLICY[1]}`);
    expect(row).toMatchObject({ extraction_status: 'extracted', extraction_error: null });
    expect(report).toMatchObject({
      background_document_id: id,
      investigation_id: investigationA,
      file_name: 'policy.pdf',
      format: 'pdf',
      pages: 2,
      characters: row.extracted_text!.length,
      replaced_chunks: 0,
      extraction_status: 'extracted',
      embedding_status: 'pending',
    });

    // the chunks are the chunker's, of the stored text, waiting for their embeddings
    const expected = chunkText(row.extracted_text!);
    const chunks = await chunkRows(id);
    expect(report.chunks).toBe(expected.length);
    expect(chunks.map((c) => [c.chunk_index, c.text, c.token_count])).toEqual(expected.map((c) => [c.index, c.text, c.tokenCount]));
    expect(chunks.every((c) => c.embedding === null && c.source_type === 'background_doc' && c.investigation_id === investigationA)).toBe(
      true,
    );

    const source = await sourceRow(id);
    expect(source).toMatchObject({
      source_type: 'background_doc',
      investigation_id: investigationA,
      status: 'pending',
      attempts: 0,
      error_message: null,
    });
    expect(chunks.every((c) => c.embedding_source_id === source!.id)).toBe(true);
  });

  it('reads a DOCX paragraph by paragraph', async () => {
    const id = await addDocument('memo.docx', CONTENT_TYPES.docx, await docxFile([...POLICY, 'Kickbacks & gifts are forbidden <always>.']));
    const report = await extract(id);
    const text = (await documentRow(id)).extracted_text!;
    expect(text).toBe(`${POLICY[0]}\n\n${POLICY[1]}\n\nKickbacks & gifts are forbidden <always>.`);
    expect(report).toMatchObject({ format: 'docx', pages: null, characters: text.length, chunks: chunkText(text).length });
  });

  it('reads plain text in UTF-8 by default and in the declared charset', async () => {
    const utf8 = await addDocument('notes.txt', 'text/plain', Buffer.from('\uFEFFZoë signed the Crédit memo.\r\n', 'utf8'));
    expect(await extract(utf8)).toMatchObject({ format: 'text', characters: 27, chunks: 1 });
    expect((await documentRow(utf8)).extracted_text).toBe('Zoë signed the Crédit memo.');

    const latin1 = await addDocument('old.txt', 'text/plain; charset=ISO-8859-1', Buffer.from('Zoë signed the Crédit memo.', 'latin1'));
    await extract(latin1);
    expect((await documentRow(latin1)).extracted_text).toBe('Zoë signed the Crédit memo.');
  });

  it('decides by file name when the declared type is generic', async () => {
    const id = await addDocument('ledger.csv', 'application/octet-stream', Buffer.from('vendor,amount\nHarlow,12000\n'));
    expect(await extract(id)).toMatchObject({ format: 'text', characters: 'vendor,amount\nHarlow,12000'.length });
  });
});

describe('re-extraction', () => {
  it('replaces the earlier chunks, embedded or not, and re-queues the source; the sweeper then embeds the new ones', async () => {
    const id = await addDocument('policy-v2.pdf', CONTENT_TYPES.pdf, pdfFile([['Old wording of the gift policy.']]));
    await extract(id);
    // the sweeper embedded the first extraction
    const source = (await sourceRow(id))!;
    await db.updateTable('embedding_sources').set({ status: 'embedded', attempts: 1 }).where('id', '=', source.id).execute();
    await db
      .updateTable('text_chunks')
      .set({ embedding: toVectorLiteral(embedText('old', 1024)) })
      .where('embedding_source_id', '=', source.id)
      .execute();
    const before = await chunkRows(id);

    // a new file version is uploaded under the same key, and extracted again
    bucket.set((await documentRow(id)).storage_key, pdfFile([POLICY, ['Gifts above 50 must be declared.']]));
    const report = await extract(id);
    expect(report).toMatchObject({ replaced_chunks: before.length, pages: 2 });
    const after = await chunkRows(id);
    const oldIds = new Set(before.map((c) => c.id));
    expect(after.filter((c) => oldIds.has(c.id))).toEqual([]);
    expect(after.every((c) => c.embedding === null)).toBe(true);
    expect(after.map((c) => c.text).join(' ')).not.toContain('Old wording');
    // the same source row, back to pending with its attempts reset
    expect(await sourceRow(id)).toMatchObject({ id: source.id, status: 'pending', attempts: 0 });

    const sweep = await sweepEmbeddings(db, {
      embedder: { model: DEFAULT_AI_MODELS.embedding, embed: async (texts) => texts.map((t) => embedText(t, 1024)) },
    });
    expect(sweep.failed).toBe(0);
    const embedded = await chunkRows(id);
    expect(embedded).toHaveLength(report.chunks);
    expect(embedded.every((c) => c.embedding !== null)).toBe(true);
    expect(embedded.map((c) => c.text)).toEqual(after.map((c) => c.text));
    expect(await sourceRow(id)).toMatchObject({ status: 'embedded' });
  });
});

describe('refusals change nothing', () => {
  const cases: [string, string, string, () => Promise<Uint8Array> | Uint8Array, number, string, RegExp][] = [
    [
      'an image',
      'scan.png',
      CONTENT_TYPES.png,
      pngFile,
      415,
      'unsupported_file_type',
      /image\/png: only PDF, Word \(\.docx\), e-mail \(\.eml\) and plain text/,
    ],
    ['a spreadsheet', 'ledger.xlsx', CONTENT_TYPES.xlsx, zipWithoutDocument, 415, 'unsupported_file_type', /spreadsheetml/],
    [
      'an unknown charset',
      'a.txt',
      'text/plain; charset=x-klingon',
      () => Buffer.from('abc'),
      415,
      'unsupported_file_type',
      /character set "x-klingon"/,
    ],
    [
      'a truncated PDF',
      'cut.pdf',
      CONTENT_TYPES.pdf,
      truncatedPdf,
      422,
      'unreadable_file',
      /^The PDF could not be read \(.+\); it may be damaged or incomplete\.$/,
    ],
    ['an image labelled PDF', 'fake.pdf', CONTENT_TYPES.pdf, pngFile, 422, 'unreadable_file', /not a PDF/],
    [
      'a zip labelled DOCX',
      'fake.docx',
      CONTENT_TYPES.docx,
      zipWithoutDocument,
      422,
      'unreadable_file',
      /^The Word document could not be read \(.*main document part.*\)/,
    ],
    ['a PDF labelled DOCX', 'fake.docx', CONTENT_TYPES.docx, () => pdfFile([['x']]), 422, 'unreadable_file', /not a zip archive/],
    ['invalid UTF-8', 'bad.txt', 'text/plain', () => Buffer.from([0x61, 0xff, 0xfe, 0x62]), 422, 'unreadable_file', /not valid UTF-8 text/],
    ['binary data labelled text', 'bin.txt', 'text/plain', () => Buffer.from('ab\u0000cd'), 422, 'unreadable_file', /holds binary data/],
    ['a PDF without a text layer', 'scan.pdf', CONTENT_TYPES.pdf, () => pdfFile([[]]), 422, 'no_text', /no text layer/],
    ['a blank text file', 'blank.txt', 'text/plain', () => Buffer.from(' \n\t\n'), 422, 'no_text', /holds no text/],
  ];

  it.each(cases)('%s', async (_what, fileName, contentType, bytes, status, code, message) => {
    const id = await addDocument(fileName, contentType, await bytes());
    const before = await state(id);
    expect(await refused(() => extract(id), status, code)).toMatch(message);
    expect(await state(id)).toEqual(before);
  });

  it('a document extracted before keeps its text and chunks when the new file is damaged', async () => {
    const id = await addDocument('keep.pdf', CONTENT_TYPES.pdf, pdfFile([POLICY]));
    await extract(id);
    const before = await state(id);
    bucket.set(before.document.storage_key, truncatedPdf());
    await refused(() => extract(id), 422, 'unreadable_file');
    expect(await state(id)).toEqual(before);
  });

  it('refuses a file over the size limit without reading it, and text longer than the chunk limit', async () => {
    const big = await addDocument('big.txt', 'text/plain', Buffer.from('x'.repeat(3 * 1024 * 1024)));
    expect(await refused(() => extract(big, orgA, { maxFileBytes: 2 * 1024 * 1024, maxChunks: 200 }), 422, 'file_too_large')).toBe(
      '"big.txt" is 3.0 MiB; text is extracted from files up to 2 MiB.',
    );

    const long = await addDocument(
      'long.docx',
      CONTENT_TYPES.docx,
      await docxFile(Array.from({ length: 5 }, () => POLICY.join(' ').repeat(4))),
    );
    const before = await state(long);
    expect(await refused(() => extract(long, orgA, { maxFileBytes: 1e6, maxChunks: 3 }), 422, 'text_too_long')).toMatch(
      /^The document's text \(\d+ characters, \d+ chunks\) is longer than one document may be for the AI \(3 chunks\); split it/,
    );
    expect(await state(long)).toEqual(before);
  });

  it('a file missing from storage is a clear 422', async () => {
    const id = await addDocument('gone.pdf', CONTENT_TYPES.pdf, undefined);
    expect(await refused(() => extract(id), 422, 'file_missing')).toBe('The file of "gone.pdf" is missing from storage; upload it again.');
  });

  it("another organization's document, or an unknown id, is not found", async () => {
    const id = await addDocument('secret.txt', 'text/plain', Buffer.from('Only Alpha may read this.'));
    const before = await state(id);
    expect(await refused(() => extract(id, orgB), 404, 'not_found')).toBe('The background document was not found.');
    expect(await refused(() => extract(randomUUID()), 404, 'not_found')).toBe('The background document was not found.');
    expect(await state(id)).toEqual(before);
  });
});
