/**
 * Bulk imports on the database (PGlite, or PostgreSQL with TEST_DATABASE_URL): an ndjson file with good, bad and
 * blank lines; a run handed on part by part; a run that dies mid-batch resumed without writing a line twice; one
 * seed-format investigation with its questions, topics, evidence and background documents.
 */
import { randomUUID } from 'node:crypto';
import type { OrgCaller } from '#core/auth/caller';
import { splitLines } from '#core/ingestion/import-files';
import { createImport, getImport } from '#core/ingestion/imports';
import { importOfKey, runImport, type ImportDeps, type ImportFiles } from '#core/ingestion/import-run';
import { createInvestigation, createQuestion } from '#core/ingestion/investigations';
import type { Presigner } from '#core/ingestion/presign';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();

const objects = new Map<string, string>();
const puts: string[] = [];
let failPutAt: number | undefined;
const files: ImportFiles = {
  lines: (key, from) => ({
    [Symbol.asyncIterator]: () =>
      splitLines(
        (async function* () {
          const bytes = Buffer.from(objects.get(key) ?? '');
          // in small pieces, so a line is split across chunks as a network stream splits it
          for (let at = from; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7);
        })(),
      ),
  }),
  text: async (key) => objects.get(key) ?? '',
  put: async (key, body) => {
    if (failPutAt !== undefined && puts.length === failPutAt) throw new Error('the worker died here');
    puts.push(key);
    objects.set(key, body);
  },
};
const presign: Presigner = async ({ key, contentType }) => ({
  url: `https://files.example/${key}`,
  method: 'PUT',
  headers: { 'content-type': contentType },
  expires_at: new Date().toISOString(),
});
const continued: string[] = [];
const woken: string[] = [];
const deps = (more: Partial<ImportDeps> = {}): ImportDeps => ({
  db,
  files,
  // a wake-up at the import's end says its writer is done (the worker's last partial request need not wait)
  wake: async (id, options) => void woken.push(options?.doneWriting ? `${id} done writing` : id),
  continueLater: async (id) => void continued.push(id),
  ...more,
});

let alpha: OrgCaller;
let investigation: string;
let question: string;

beforeAll(async () => {
  const org = (
    await db
      .insertInto('organizations')
      .values({ name: `Alpha ${randomUUID()}` })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  alpha = { subject: `s-${randomUUID()}`, email: `${randomUUID()}@example.com`, role: 'investigator', organizationId: org };
  investigation = (await createInvestigation(db, alpha, { title: 'Imports' })).investigation_id;
  question = (await createQuestion(db, alpha.organizationId, investigation, 'Were the invoices inflated?')).question_id;
});

/** Starts an import and "uploads" its file. */
const started = async (format: 'ndjson' | 'seed', body: string) => {
  const created = await createImport({ db, presign }, alpha, investigation, { format, size_bytes: Buffer.byteLength(body) });
  expect(created).toMatchObject({ status: 'awaiting_upload', lines_total: null, lines_done: 0, errors: [] });
  const key = `imports/${created.import_id}`;
  expect(importOfKey(key)).toBe(created.import_id);
  objects.set(key, body);
  return created.import_id;
};

const itemsOf = (importId: string) =>
  db
    .selectFrom('evidence_items')
    .select(['title', 'content'])
    .where('idempotency_key', 'like', `import:${importId}:%`)
    .orderBy('title')
    .execute();

const line = (n: number, more: object = {}) =>
  JSON.stringify({ title: `Item ${String(n).padStart(3, '0')}`, content: `Text of item ${n}.`, ...more });

describe('ndjson imports', () => {
  it('writes the good lines with their chunks and files, lists the bad ones by line and field, skips blank lines', async () => {
    const body = [
      line(1, {
        linked_question_ids: [question],
        attachments: [{ file_name: 'a.txt', content_type: 'text/plain', text: 'Attached text.' }],
      }),
      '',
      '{"title": "broken',
      line(4, { colour: 'red' }),
      line(5, { linked_question_ids: [randomUUID()] }),
      line(6, { title: 'Item\u0000six' }),
      line(7),
    ].join('\r\n');
    const id = await started('ndjson', `\uFEFF${body}\n`);
    woken.length = 0;
    expect(await runImport(deps(), id)).toBe('complete');
    const view = await getImport(db, alpha.organizationId, investigation, id);
    expect(view).toMatchObject({ status: 'complete', lines_total: 7, lines_done: 7, lines_failed: 4, error: null });
    expect(view.finished_at).not.toBeNull();
    expect(view.errors).toEqual([
      { line: 3, field: '(line)', message: expect.stringContaining('not valid JSON') },
      { line: 4, field: '(line)', message: expect.stringContaining('colour') },
      { line: 5, field: 'linked_question_ids.0', message: 'is not a question of this investigation' },
      { line: 6, field: 'title', message: expect.stringContaining('NUL') },
    ]);
    expect((await itemsOf(id)).map((i) => i.title)).toEqual(['Item 001', 'Item 007']);
    const attachment = await db
      .selectFrom('attachments')
      .selectAll()
      .where('file_name', '=', 'a.txt')
      .where('investigation_id', '=', investigation)
      .executeTakeFirstOrThrow();
    expect(attachment).toMatchObject({ extraction_status: 'extracted', extracted_text: 'Attached text.' });
    expect(objects.get(attachment.storage_key)).toBe('Attached text.'); // the viewer opens it
    const chunks = await db
      .selectFrom('text_chunks')
      .select('source_type')
      .where('evidence_item_id', '=', attachment.evidence_item_id)
      .execute();
    expect(chunks.map((c) => c.source_type).sort()).toEqual(['attachment', 'content']);
    expect(woken).toContain(investigation);
  });

  it('hands on the rest when its budget runs out, and the next parts go on where it stopped', async () => {
    const id = await started('ndjson', Array.from({ length: 25 }, (_, i) => line(i + 1)).join('\n'));
    continued.length = 0;
    woken.length = 0;
    let now = 0;
    const run = () => runImport(deps({ batchLines: 10, budgetMs: 1, now: () => (now += 1) }), id);
    expect(await run()).toBe('continued');
    expect(await getImport(db, alpha.organizationId, investigation, id)).toMatchObject({
      status: 'processing',
      lines_done: 10,
      lines_total: 25,
    });
    expect(await run()).toBe('continued');
    expect(await run()).toBe('complete');
    expect(continued).toEqual([id, id]);
    // a wake-up for each part's writes, and the last says the import is done writing
    expect(woken).toEqual([investigation, investigation, investigation, `${investigation} done writing`]);
    expect(await itemsOf(id)).toHaveLength(25);
    expect(await runImport(deps(), id)).toBe('nothing_to_do');
  });

  it('a run that dies mid-batch loses that batch only: the next writes every line once', async () => {
    const id = await started(
      'ndjson',
      Array.from({ length: 12 }, (_, i) =>
        line(i + 1, { attachments: [{ file_name: `f${i}.txt`, content_type: 'text/plain', text: `F${i}` }] }),
      ).join('\n'),
    );
    failPutAt = puts.length + 7; // dies putting the 8th line's file, in the second batch
    await expect(runImport(deps({ batchLines: 5 }), id)).rejects.toThrow('the worker died here');
    failPutAt = undefined;
    expect(await getImport(db, alpha.organizationId, investigation, id)).toMatchObject({ lines_done: 5 });
    // its lease still holds: another delivery leaves it alone, then takes it over once the lease is gone
    expect(await runImport(deps(), id)).toBe('held');
    await db
      .updateTable('imports')
      .set({ claimed_until: new Date(Date.now() - 1) })
      .where('id', '=', id)
      .execute();
    expect(await runImport(deps({ batchLines: 5 }), id)).toBe('complete');
    const items = await itemsOf(id);
    expect(items.map((i) => i.title)).toEqual(Array.from({ length: 12 }, (_, i) => `Item ${String(i + 1).padStart(3, '0')}`));
  });
});

describe('seed-format imports', () => {
  it('adds the questions and topics it lacks, links by key, writes evidence and background documents as lines', async () => {
    const file = {
      title: 'ignored: the import goes into its own investigation',
      questions: [
        { key: 'q1', text: 'Were the invoices inflated?' },
        { key: 'q2', text: 'Who signed the purchase orders?' },
      ],
      topics: [{ title: 'Purchase orders' }],
      evidence: [
        { title: 'PO 1', content: 'Signed by the buyer.', linked_questions: ['q1', 'q2'] },
        { title: 'PO 2', content: 'x', linked_questions: ['q9'] },
      ],
      background_documents: [
        { title: 'Policy', file_name: 'policy.txt', content_type: 'text/plain', text: 'Two signatures above 10,000.' },
      ],
    };
    const id = await started('seed', JSON.stringify(file));
    expect(await runImport(deps(), id)).toBe('complete');
    const view = await getImport(db, alpha.organizationId, investigation, id);
    expect(view).toMatchObject({ lines_total: 3, lines_done: 3, lines_failed: 1 });
    expect(view.errors).toEqual([{ line: 2, field: 'linked_questions.0', message: 'no question with key "q9" in this file' }]);
    const questions = await db.selectFrom('questions').select(['id', 'text']).where('investigation_id', '=', investigation).execute();
    // the first question matched the one the investigation had; the second was added
    expect(questions.filter((q) => q.text === 'Were the invoices inflated?')).toEqual([
      { id: question, text: 'Were the invoices inflated?' },
    ]);
    expect(questions.some((q) => q.text === 'Who signed the purchase orders?')).toBe(true);
    const po = await db.selectFrom('evidence_items').select('id').where('title', '=', 'PO 1').executeTakeFirstOrThrow();
    const links = await db.selectFrom('evidence_question_links').select('question_id').where('evidence_item_id', '=', po.id).execute();
    expect(links).toHaveLength(2);
    const policy = await db.selectFrom('background_documents').selectAll().where('title', '=', 'Policy').executeTakeFirstOrThrow();
    expect(policy).toMatchObject({ extraction_status: 'extracted', included_for_ai: true, investigation_id: investigation });
  });

  it('a file that is not one investigation fails as a whole, saying why', async () => {
    const id = await started('seed', '{"organizations": []}');
    expect(await runImport(deps(), id)).toBe('failed');
    expect(await getImport(db, alpha.organizationId, investigation, id)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('"evidence" list'),
    });
  });
});
