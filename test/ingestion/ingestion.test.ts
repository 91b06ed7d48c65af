/**
 * Evidence coming in, on the database (PGlite, or PostgreSQL with TEST_DATABASE_URL): investigations, questions and
 * topics; evidence items with their text chunked at once and their files awaiting presigned uploads; idempotency
 * keys; refusals that change nothing; a file's arrival extracted into chunks (pages kept), refused or given up;
 * readiness and the ingestion status; change and delete taking chunks and files with them.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { OrgCaller } from '#core/auth/caller';
import { DomainError } from '#core/errors';
import { httpStatusOf } from '#core/http/errors';
import type { FileReader } from '#core/files/object-store';
import { MAX_EXTRACTION_ATTEMPTS } from '#core/files/stored-files';
import { handleArrival } from '#core/ingestion/arrivals';
import { createBackgroundDocument, deleteBackgroundDocument, updateBackgroundDocument } from '#core/ingestion/background-documents';
import {
  addAttachments,
  createEvidence,
  deleteEvidence,
  getEvidence,
  reissueUpload,
  updateEvidence,
  type EvidenceDeps,
} from '#core/ingestion/evidence';
import { createInvestigation, createQuestion, createTopic, updateInvestigation } from '#core/ingestion/investigations';
import type { Presigner } from '#core/ingestion/presign';
import { ingestionStatus } from '#core/ingestion/status';
import { useTestDatabase } from '../support/db';
import { CONTENT_TYPES, pdfFile, truncatedPdf } from '../files/fixtures';

const db = useTestDatabase();

/** The bucket the "client" uploads into: storage key → bytes. */
const bucket = new Map<string, Uint8Array>();
const files: FileReader = {
  read: async (key, maxBytes) => {
    const bytes = bucket.get(key);
    if (!bytes) return { status: 'missing' };
    return bytes.length > maxBytes ? { status: 'too_large', sizeBytes: bytes.length } : { status: 'ok', bytes };
  },
};
/** What was presigned: each upload URL names the key, and carries the type and size it binds. */
const presigned: { key: string; contentType: string; sizeBytes: number }[] = [];
const presign: Presigner = async ({ key, contentType, sizeBytes, expiresInSeconds }) => {
  presigned.push({ key, contentType, sizeBytes });
  return {
    url: `https://files.example/${key}?size=${sizeBytes}`,
    method: 'PUT',
    headers: { 'content-type': contentType },
    expires_at: new Date(Date.now() + expiresInSeconds * 1000).toISOString(),
  };
};
const woken: string[] = [];
const removed: string[] = [];
const deps: EvidenceDeps = { db, presign, wake: async (id) => void woken.push(id) };
const arrival = (key: string) => handleArrival({ db, files, wake: deps.wake }, key);

const caller = (organizationId: string): OrgCaller => ({
  subject: `sub-${randomUUID()}`,
  email: `${randomUUID()}@example.com`,
  role: 'investigator',
  organizationId,
});

let alpha: OrgCaller;
let beta: OrgCaller;
let investigation: string;

beforeAll(async () => {
  const org = async (name: string) =>
    (
      await db
        .insertInto('organizations')
        .values({ name: `${name} ${randomUUID()}` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  alpha = caller(await org('Alpha'));
  beta = caller(await org('Beta'));
  investigation = (await createInvestigation(db, alpha, { title: 'Vendor kickbacks', description: 'Procurement 2024' })).investigation_id;
});

/** Runs `fn`, which must fail with this status and code; returns the error. */
const refused = async (fn: () => Promise<unknown>, status: number, code?: string): Promise<DomainError> => {
  const error = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect({ status: httpStatusOf(error as DomainError), code: (error as DomainError).code }).toMatchObject({
    status,
    ...(code && { code }),
  });
  return error as DomainError;
};

const counts = async () => {
  const { rows } = await sql<Record<string, number>>`
    select (select count(*)::int from evidence_items) as items, (select count(*)::int from attachments) as attachments,
           (select count(*)::int from text_chunks) as chunks, (select count(*)::int from evidence_question_links) as links,
           (select count(*)::int from embedding_sources) as sources`.execute(db);
  return rows[0]!;
};

describe('investigations, questions and topics', () => {
  it('creates and changes an investigation of the caller organization; another organization sees none of it', async () => {
    const created = await createInvestigation(db, alpha, { title: 'Travel fraud' });
    expect(created).toMatchObject({ title: 'Travel fraud', description: '', evidence_count: 0, background_document_count: 0 });
    const changed = await updateInvestigation(db, alpha.organizationId, created.investigation_id, { description: 'Q3 expense claims' });
    expect(changed).toMatchObject({ title: 'Travel fraud', description: 'Q3 expense claims' });
    await refused(() => updateInvestigation(db, beta.organizationId, created.investigation_id, { title: 'x' }), 404);
    await refused(() => createQuestion(db, beta.organizationId, created.investigation_id, 'Who?'), 404);
  });

  it('adds questions in order and topics once per title', async () => {
    const first = await createQuestion(db, alpha.organizationId, investigation, 'Were payments split to avoid approval?');
    const second = await createQuestion(db, alpha.organizationId, investigation, 'Who approved the Harlow invoices?');
    const positions = await db.selectFrom('questions').select(['id', 'position']).where('investigation_id', '=', investigation).execute();
    expect(positions.find((q) => q.id === second.question_id)!.position).toBe(
      positions.find((q) => q.id === first.question_id)!.position + 1,
    );
    await createTopic(db, alpha.organizationId, investigation, { title: 'Gifts and hospitality' });
    await refused(() => createTopic(db, alpha.organizationId, investigation, { title: 'gifts AND hospitality' }), 409, 'conflict');
  });
});

describe('evidence items', () => {
  let question: string;
  beforeAll(async () => {
    question = (await createQuestion(db, alpha.organizationId, investigation, 'Did the vendor pay kickbacks?')).question_id;
  });

  it('writes the text as chunks waiting for embeddings, wakes the embedding worker and answers an upload per file', async () => {
    woken.length = 0;
    const { replayed, evidence } = await createEvidence(deps, alpha, investigation, {
      title: 'Interview with the buyer',
      content: 'The buyer said the vendor paid for a holiday in March. '.repeat(30),
      collected_at: '2024-03-15',
      linked_question_ids: [question.toUpperCase()],
      attachments: [
        { file_name: 'notes.txt', content_type: 'text/plain', size_bytes: 120 },
        { file_name: 'Invoice 7.PDF', content_type: 'application/octet-stream', size_bytes: 2048 },
      ],
    });
    expect(replayed).toBe(false);
    expect(evidence).toMatchObject({ title: 'Interview with the buyer', linked_question_ids: [question], readiness: 'processing' });
    expect(evidence.collected_at).toBe('2024-03-15T00:00:00.000Z');
    expect(evidence.attachments.map((a) => [a.file_name, a.content_type, a.state])).toEqual([
      ['notes.txt', 'text/plain', 'awaiting_upload'],
      // a generic type is stored as the extension's, so the viewer knows what the file is
      ['Invoice 7.PDF', 'application/pdf', 'awaiting_upload'],
    ]);
    expect(evidence.uploads.map((u) => u.attachment_id)).toEqual(evidence.attachments.map((a) => a.attachment_id));
    expect(presigned.slice(-2).map((p) => [p.contentType, p.sizeBytes])).toEqual([
      ['text/plain', 120],
      ['application/pdf', 2048],
    ]);
    expect(presigned.at(-1)!.key).toBe(
      `org/${alpha.organizationId}/inv/${investigation}/attachments/${evidence.attachments[1]!.attachment_id}/Invoice 7.PDF`,
    );
    expect(evidence.chunks.total).toBeGreaterThan(1);
    expect(evidence.chunks.embedded).toBe(0);
    const chunk = await db
      .selectFrom('text_chunks')
      .selectAll()
      .where('evidence_item_id', '=', evidence.evidence_id)
      .executeTakeFirstOrThrow();
    expect(chunk).toMatchObject({ source_type: 'content', embedding: null, char_start: 0, page: null });
    expect(woken).toEqual([investigation]);
  });

  it('answers the first result again for a repeated idempotency key, and refuses the key with another body', async () => {
    const request = { title: 'Expense report ER-7', content: 'Dinner, 212.40', idempotency_key: `er-7-${randomUUID()}` };
    const first = await createEvidence(deps, alpha, investigation, request);
    const before = await counts();
    const again = await createEvidence(deps, alpha, investigation, request);
    expect(again.replayed).toBe(true);
    expect(again.evidence.evidence_id).toBe(first.evidence.evidence_id);
    expect(await counts()).toEqual(before);
    const error = await refused(() => createEvidence(deps, alpha, investigation, { ...request, content: 'Dinner, 999' }), 409, 'conflict');
    expect(error.details).toEqual({ evidence_id: first.evidence.evidence_id });
    expect(await counts()).toEqual(before);
  });

  it('refuses, changing nothing: a file it cannot read, a question of another investigation, another organization', async () => {
    const other = (await createInvestigation(db, alpha, { title: 'Other' })).investigation_id;
    const foreign = (await createQuestion(db, alpha.organizationId, other, 'Elsewhere?')).question_id;
    const before = await counts();
    const unsupported = await refused(
      () =>
        createEvidence(deps, alpha, investigation, {
          title: 'Photos',
          attachments: [
            { file_name: 'a.txt', content_type: 'text/plain', size_bytes: 3 },
            { file_name: 'b.png', content_type: 'image/png', size_bytes: 3 },
          ],
        }),
      415,
      'unsupported_file_type',
    );
    expect(unsupported.details).toEqual([{ path: 'attachments.1.content_type', message: expect.stringContaining('image/png') }]);
    const links = await refused(
      () => createEvidence(deps, alpha, investigation, { title: 'Memo', content: 'x', linked_question_ids: [foreign, randomUUID()] }),
      400,
      'validation_failed',
    );
    expect(links.details).toEqual([
      { path: 'linked_question_ids.0', message: 'is not a question of this investigation' },
      { path: 'linked_question_ids.1', message: 'is not a question of this investigation' },
    ]);
    await refused(() => createEvidence(deps, beta, investigation, { title: 'Memo', content: 'x' }), 404);
    await refused(() => createEvidence(deps, alpha, randomUUID(), { title: 'Memo', content: 'x' }), 404);
    expect(await counts()).toEqual(before);
  });

  it('changes text (chunked again), links and title; deletes the item with its chunks and files', async () => {
    woken.length = 0;
    const { evidence } = await createEvidence(deps, alpha, investigation, {
      title: 'Draft',
      content: 'First version of the memo.',
      attachments: [{ file_name: 'scan.txt', content_type: 'text/plain', size_bytes: 5 }],
    });
    const oldChunks = await db.selectFrom('text_chunks').select('id').where('evidence_item_id', '=', evidence.evidence_id).execute();
    const changed = await updateEvidence(deps, alpha.organizationId, investigation, evidence.evidence_id, {
      title: 'Final',
      content: 'Second version: the vendor paid the buyer.',
      collected_at: null,
    });
    expect(changed).toMatchObject({ title: 'Final', content: 'Second version: the vendor paid the buyer.', collected_at: null });
    const newChunks = await db
      .selectFrom('text_chunks')
      .select(['id', 'text'])
      .where('evidence_item_id', '=', evidence.evidence_id)
      .execute();
    expect(newChunks.map((c) => c.text)).toEqual(['Second version: the vendor paid the buyer.']);
    expect(newChunks.some((c) => oldChunks.some((o) => o.id === c.id))).toBe(false);
    expect(woken).toEqual([investigation, investigation]);
    // a title change alone re-embeds nothing
    await updateEvidence(deps, alpha.organizationId, investigation, evidence.evidence_id, { title: 'Final memo' });
    expect(woken).toHaveLength(2);

    const deleted = await deleteEvidence(
      { db, files: { remove: async (keys) => void removed.push(...keys) } },
      alpha.organizationId,
      investigation,
      evidence.evidence_id,
    );
    expect(deleted).toEqual({ evidence_id: evidence.evidence_id, deleted: true, attachments: 1, chunks: 1 });
    expect(removed.at(-1)).toContain(`/attachments/${evidence.attachments[0]!.attachment_id}/scan.txt`);
    expect(await db.selectFrom('text_chunks').select('id').where('evidence_item_id', '=', evidence.evidence_id).execute()).toEqual([]);
    expect(await db.selectFrom('embedding_sources').select('id').where('evidence_item_id', '=', evidence.evidence_id).execute()).toEqual(
      [],
    );
    await refused(() => getEvidence(db, alpha.organizationId, investigation, evidence.evidence_id), 404);
  });

  it('adds attachments up to the limit, and issues a new upload only for a file that has not arrived', async () => {
    const { evidence } = await createEvidence(deps, alpha, investigation, { title: 'Bundle' });
    const more = await addAttachments(deps, alpha.organizationId, investigation, evidence.evidence_id, [
      { file_name: 'one.csv', content_type: 'text/csv', size_bytes: 10 },
    ]);
    expect(more.uploads).toHaveLength(1);
    await refused(
      () =>
        addAttachments(
          deps,
          alpha.organizationId,
          investigation,
          evidence.evidence_id,
          Array.from({ length: 50 }, (_, i) => ({ file_name: `f${i}.txt`, content_type: 'text/plain', size_bytes: 1 })),
        ),
      409,
    );
    const attachment = more.attachments[0]!.attachment_id;
    const upload = await reissueUpload(deps, alpha.organizationId, {
      investigationId: investigation,
      evidenceId: evidence.evidence_id,
      attachmentId: attachment,
    });
    expect(upload.attachment_id).toBe(attachment);
    bucket.set(presigned.at(-1)!.key, Buffer.from('a,b\n1,2\n'));
    expect(await arrival(presigned.at(-1)!.key)).toBe('extracted');
    await refused(
      () =>
        reissueUpload(deps, alpha.organizationId, {
          investigationId: investigation,
          evidenceId: evidence.evidence_id,
          attachmentId: attachment,
        }),
      409,
    );
  });
});

describe('a file arrives', () => {
  const upload = async (fileName: string, contentType: string, bytes: Uint8Array) => {
    const { evidence } = await createEvidence(deps, alpha, investigation, {
      title: `Item with ${fileName}`,
      attachments: [{ file_name: fileName, content_type: contentType, size_bytes: bytes.length }],
    });
    const key = presigned.at(-1)!.key;
    bucket.set(key, bytes);
    return { evidence, key };
  };

  it('is extracted into chunks that keep their PDF page, once however often its event comes', async () => {
    woken.length = 0;
    const pages = [['Page one: the approval matrix.'], ['Page two: the vendor list and the payments.']];
    const { evidence, key } = await upload('matrix.pdf', CONTENT_TYPES.pdf, pdfFile(pages));
    expect(await arrival(key)).toBe('extracted');
    expect(await arrival(key)).toBe('nothing_to_do');
    const view = await getEvidence(db, alpha.organizationId, investigation, evidence.evidence_id);
    expect(view.attachments[0]).toMatchObject({ state: 'extracted', pages: 2, error: null });
    const chunks = await db
      .selectFrom('text_chunks')
      .select(['text', 'page', 'source_type'])
      .where('evidence_item_id', '=', evidence.evidence_id)
      .execute();
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => c.source_type === 'attachment' && c.page === 1)).toBe(true); // short pages: one chunk starting on page 1
    expect(woken).toEqual([investigation]);
  });

  it('a file it cannot read is recorded on the file, and the item fails with the reason', async () => {
    const { evidence, key } = await upload('broken.pdf', CONTENT_TYPES.pdf, truncatedPdf());
    expect(await arrival(key)).toBe('refused');
    const view = await getEvidence(db, alpha.organizationId, investigation, evidence.evidence_id);
    expect(view.readiness).toBe('failed');
    expect(view.attachments[0]).toMatchObject({ state: 'error', error: expect.stringContaining('PDF') });
    const status = await ingestionStatus(db, alpha.organizationId, investigation);
    expect(status.failed).toContainEqual(
      expect.objectContaining({ attachment_id: view.attachments[0]!.attachment_id, file_name: 'broken.pdf' }),
    );
  });

  it('a file whose worker keeps failing is given up after its attempts, not retried for ever', async () => {
    const { evidence, key } = await upload('hang.txt', 'text/plain', Buffer.from('text'));
    await db
      .updateTable('attachments')
      .set({ extraction_status: 'pending', extraction_attempts: MAX_EXTRACTION_ATTEMPTS })
      .where('evidence_item_id', '=', evidence.evidence_id)
      .execute();
    expect(await arrival(key)).toBe('given_up');
    const view = await getEvidence(db, alpha.organizationId, investigation, evidence.evidence_id);
    expect(view.attachments[0]).toMatchObject({ state: 'error', error: expect.stringContaining(`${MAX_EXTRACTION_ATTEMPTS} times`) });
  });

  it('a key the service did not issue is nothing to do', async () => {
    expect(await arrival('org/not-a-key.txt')).toBe('nothing_to_do');
    expect(await arrival(`org/${alpha.organizationId}/inv/${investigation}/attachments/${randomUUID()}/gone.txt`)).toBe('nothing_to_do');
  });

  it('an upload that never arrives makes the item say so once its deadline passes', async () => {
    const { evidence } = await createEvidence(deps, alpha, investigation, {
      title: 'Never uploaded',
      attachments: [{ file_name: 'lost.txt', content_type: 'text/plain', size_bytes: 9 }],
    });
    expect((await getEvidence(db, alpha.organizationId, investigation, evidence.evidence_id)).readiness).toBe('processing');
    await db
      .updateTable('attachments')
      .set({ upload_deadline: new Date(Date.now() - 1000) })
      .where('evidence_item_id', '=', evidence.evidence_id)
      .execute();
    const view = await getEvidence(db, alpha.organizationId, investigation, evidence.evidence_id);
    expect(view.readiness).toBe('failed');
    expect(view.attachments[0]).toMatchObject({ state: 'upload_missing', error: expect.stringContaining('never arrived') });
  });
});

describe('readiness', () => {
  it('counts items ready, processing and failed, and the chunks waiting', async () => {
    const fresh = (await createInvestigation(db, alpha, { title: 'Readiness' })).investigation_id;
    const ready = await createEvidence(deps, alpha, fresh, { title: 'Embedded', content: 'The payments were split.' });
    await createEvidence(deps, alpha, fresh, { title: 'Waiting', content: 'Not embedded yet.' });
    // the embedding worker's part, done by hand here: the first item's chunks embedded
    await db
      .updateTable('text_chunks')
      .set({ embedding: sql`array_fill(0.1::real, array[1024])::vector`, embedding_model: 'm' })
      .where('evidence_item_id', '=', ready.evidence.evidence_id)
      .execute();
    await db
      .updateTable('embedding_sources')
      .set({ status: 'embedded' })
      .where('evidence_item_id', '=', ready.evidence.evidence_id)
      .execute();
    const doc = await createBackgroundDocument({ db, presign }, alpha, fresh, {
      title: 'Gift policy',
      file_name: 'policy.txt',
      content_type: 'text/plain',
      size_bytes: 30,
      included_for_ai: true,
    });
    expect(doc).toMatchObject({ state: 'awaiting_upload', readiness: 'processing', included_for_ai: true });
    expect(doc.upload.headers).toEqual({ 'content-type': 'text/plain' });

    const status = await ingestionStatus(db, alpha.organizationId, fresh);
    expect(status).toMatchObject({
      items_total: 3,
      items_ready: 1,
      items_processing: 2,
      items_failed: 0,
      chunks_total: 2,
      chunks_pending: 1,
    });
    expect((await getEvidence(db, alpha.organizationId, fresh, ready.evidence.evidence_id)).readiness).toBe('ready');

    const excluded = await updateBackgroundDocument(db, alpha.organizationId, fresh, doc.background_document_id, {
      included_for_ai: false,
    });
    expect(excluded.included_for_ai).toBe(false);
    await refused(() => updateBackgroundDocument(db, beta.organizationId, fresh, doc.background_document_id, { title: 'x' }), 404);
    const gone = await deleteBackgroundDocument(
      { db, files: { remove: async (keys) => void removed.push(...keys) } },
      alpha.organizationId,
      fresh,
      doc.background_document_id,
    );
    expect(gone).toEqual({ background_document_id: doc.background_document_id, deleted: true, chunks: 0 });
    expect((await ingestionStatus(db, alpha.organizationId, fresh)).items_total).toBe(2);
    await refused(() => ingestionStatus(db, beta.organizationId, fresh), 404);
  });
});
