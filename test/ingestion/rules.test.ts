/**
 * The pure rules of evidence coming in: which files are taken and as what type, where they are stored and when an
 * upload counts as missing; which key names which file or import; what an S3 event names; a PDF's pages on its
 * chunks; an import's lines (split across stream chunks, numbered, blank ones skipped, parsed); readiness from an
 * item's parts; the fingerprint an idempotency key stands for.
 */
import { PAGE_BREAK, pageAt, pageStarts, prepareChunks } from '#core/embeddings/chunking';
import { fileOfKey, objectCreatedIn } from '#core/ingestion/arrivals';
import { fingerprintOf } from '#core/ingestion/evidence';
import { splitLines } from '#core/ingestion/import-files';
import { parseNdjsonLine } from '#core/ingestion/import-lines';
import { importOfKey, linkProblems, numberedNdjson } from '#core/ingestion/import-run';
import { countItems, fileProblem, fileState, readinessOf } from '#core/ingestion/readiness';
import { acceptFile, attachmentKey, importKey, uploadDeadline, UPLOAD_LIMITS } from '#core/ingestion/uploads';

const ORG = '8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9c01';
const INV = '2f6c1b7e-4d8a-4c3b-9e5f-1a2b3c4d5e01';
const ID = '0b9c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3';

describe('files taken', () => {
  it.each([
    [{ file_name: 'a.pdf', content_type: 'application/pdf' }, 'pdf', 'application/pdf'],
    [{ file_name: 'Mail.EML', content_type: 'application/octet-stream' }, 'email', 'message/rfc822'],
    [{ file_name: 'x.docx', content_type: '' }, 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    [{ file_name: 'n.csv', content_type: 'text/csv; charset=utf-8' }, 'text', 'text/csv; charset=utf-8'],
  ])('%j is read as %s and stored as %s', (file, format, contentType) => {
    expect(acceptFile(file)).toEqual({ ok: true, format, contentType });
  });

  it('refuses what cannot be read, naming it', () => {
    expect(acceptFile({ file_name: 'p.png', content_type: 'image/png' })).toEqual({
      ok: false,
      message: expect.stringContaining('image/png'),
    });
    expect(acceptFile({ file_name: 'p.xyz', content_type: 'application/octet-stream' })).toEqual({
      ok: false,
      message: expect.stringContaining('"p.xyz"'),
    });
  });

  it('keys name the organization, investigation and file; an upload is missing five minutes after its URL expires', () => {
    const key = attachmentKey({ organizationId: ORG, investigationId: INV, attachmentId: ID }, 'Invoice 7.pdf');
    expect(key).toBe(`org/${ORG}/inv/${INV}/attachments/${ID}/Invoice 7.pdf`);
    expect(fileOfKey(key)).toEqual({ kind: 'attachment', id: ID });
    expect(fileOfKey(`org/${ORG}/inv/${INV}/background/${ID.toUpperCase()}/p.txt`)).toEqual({ kind: 'background_document', id: ID });
    expect(fileOfKey(`imports/${ID}`)).toBeUndefined();
    expect(importOfKey(importKey(ID))).toBe(ID);
    expect(importOfKey(`imports/${ID}/x`)).toBeUndefined();
    const issued = new Date('2026-01-01T00:00:00Z');
    expect(uploadDeadline(issued).getTime() - issued.getTime()).toBe((UPLOAD_LIMITS.urlSeconds + UPLOAD_LIMITS.graceSeconds) * 1000);
  });

  it("reads S3's EventBridge event, and nothing else", () => {
    const event = {
      'detail-type': 'Object Created',
      source: 'aws.s3',
      detail: { bucket: { name: 'b' }, object: { key: 'org/x', size: 3 } },
    };
    expect(objectCreatedIn(JSON.stringify(event))).toEqual({ bucket: 'b', key: 'org/x', size: 3 });
    expect(objectCreatedIn(JSON.stringify({ ...event, 'detail-type': 'Object Deleted' }))).toBeUndefined();
    expect(objectCreatedIn('{"import_id":"x"}')).toBeUndefined();
    expect(objectCreatedIn('not json')).toBeUndefined();
  });
});

describe("a PDF's pages", () => {
  it('each chunk says the page it starts on; the chunks are those of the text without page breaks', () => {
    const pages = ['First page. '.repeat(60), 'Second page. '.repeat(60), '', 'Fourth page. '.repeat(60)];
    const text = pages.join(PAGE_BREAK);
    const starts = pageStarts(text);
    expect(starts).toHaveLength(4);
    expect(starts[2]).toBe(starts[3]); // an empty page starts where the next one does
    const chunks = prepareChunks(text);
    expect(chunks[0]!.page).toBe(1);
    expect(chunks.at(-1)!.page).toBe(4);
    expect(chunks.some((c) => c.page === 2)).toBe(true);
    expect(chunks.map((c) => c.text)).toEqual(prepareChunks(pages.join('\n\n')).map((c) => c.text));
    expect(pageAt([], 10)).toBeNull();
    expect(pageStarts('no pages here')).toEqual([]);
  });
});

describe("an import's lines", () => {
  async function* pieces(text: string, size: number) {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  }
  const collect = async <T>(source: AsyncIterable<T>) => {
    const out: T[] = [];
    for await (const item of source) out.push(item);
    return out;
  };

  it('splits lines across stream pieces and multibyte characters, counting bytes', async () => {
    const text = 'ünë\r\ntwo\n\nthree';
    for (const size of [1, 2, 3, 100]) {
      const lines = await collect(splitLines(pieces(text, size)));
      expect(lines.map((l) => l.text)).toEqual(['ünë', 'two', '', 'three']);
      expect(lines.reduce((n, l) => n + l.bytes, 0)).toBe(Buffer.byteLength(text));
    }
  });

  it('numbers lines from where a run resumes, skips blank ones, reads the BOM away and keeps the bytes read', async () => {
    const lines = await collect(numberedNdjson(splitLines(pieces('\uFEFF{"title":"A"}\n\n{"title":"B"}\n', 4)), 1, 0));
    expect(lines.map((l) => [l.line, l.parsed.ok])).toEqual([
      [1, true],
      [3, true],
    ]);
    expect(lines.at(-1)!.bytes).toBe(Buffer.byteLength('\uFEFF{"title":"A"}\n\n{"title":"B"}\n'));
    const resumed = await collect(numberedNdjson(splitLines(pieces('{"title":"C"}', 4)), 8, 100));
    expect(resumed).toEqual([{ line: 8, parsed: expect.objectContaining({ ok: true }), bytes: 100 + 13 }]);
  });

  it('parses a line into an evidence item, or says what is wrong with it, field by field', () => {
    expect(parseNdjsonLine('{"title":" Memo ","attachments":[{"file_name":"a.txt","content_type":"text/plain","text":"x"}]}')).toEqual({
      ok: true,
      entry: {
        kind: 'evidence',
        title: 'Memo',
        content: '',
        collected_at: null,
        questions: { ids: [] },
        attachments: [{ file_name: 'a.txt', content_type: 'text/plain', text: 'x' }],
      },
    });
    expect(parseNdjsonLine('{"title":"","attachments":[{"file_name":"a/b","content_type":"text/plain","text":"x"}]}')).toEqual({
      ok: false,
      problems: [
        { field: 'title', message: 'must not be empty' },
        { field: 'attachments.0.file_name', message: expect.stringContaining('plain file name') },
      ],
    });
    expect(parseNdjsonLine('[1,2]')).toMatchObject({ ok: false, problems: [{ field: '(line)' }] });
  });

  it('refuses links to questions the investigation does not hold', () => {
    const parsed = parseNdjsonLine(JSON.stringify({ title: 'x', linked_question_ids: [ID, INV] }));
    if (!parsed.ok) throw new Error('expected a parsed line');
    expect(linkProblems(parsed.entry, new Set([ID]))).toEqual([
      { field: 'linked_question_ids.1', message: 'is not a question of this investigation' },
    ]);
  });
});

describe('readiness', () => {
  it('an item is processing while any part is, failed when a part failed and none is in progress, else ready', () => {
    expect(readinessOf({ processing: true, failed: true })).toBe('processing');
    expect(readinessOf({ processing: false, failed: true })).toBe('failed');
    expect(readinessOf({ processing: false, failed: false })).toBe('ready');
    expect(
      countItems(10, [
        { processing: true, failed: false },
        { processing: true, failed: true },
        { processing: false, failed: true },
      ]),
    ).toEqual({ total: 10, processing: 2, failed: 1, ready: 7 });
  });

  it('an upload still awaited after its deadline is missing, and says what to do', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    expect(fileState('awaiting_upload', '2026-01-01T12:00:01Z', now)).toBe('awaiting_upload');
    expect(fileState('awaiting_upload', '2026-01-01T11:59:59Z', now)).toBe('upload_missing');
    expect(fileState('extracted', '2026-01-01T11:00:00Z', now)).toBe('extracted');
    expect(fileProblem('upload_missing', null)).toMatch(/new upload URL/);
    expect(fileProblem('error', 'The PDF is password-protected.')).toBe('The PDF is password-protected.');
    expect(fileProblem('extracted', null)).toBeNull();
  });
});

describe('idempotency', () => {
  it('a request stands for its content whatever its keys order, and not for its key', () => {
    const a = fingerprintOf({
      title: 'x',
      content: 'y',
      attachments: [{ file_name: 'a', content_type: 't', size_bytes: 1 }],
      idempotency_key: 'k1',
    });
    const b = fingerprintOf({
      attachments: [{ size_bytes: 1, content_type: 't', file_name: 'a' }],
      content: 'y',
      title: 'x',
      idempotency_key: 'k2',
    });
    expect(a).toBe(b);
    expect(fingerprintOf({ title: 'x', content: 'z' })).not.toBe(fingerprintOf({ title: 'x', content: 'y' }));
  });
});
