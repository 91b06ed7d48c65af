/**
 * Evidence in, end to end through the twin rendered from the synthesized stage: the routes create an investigation,
 * its question and topic, an evidence item whose files go straight to the bucket by the presigned URLs the API
 * answers (followed here with plain fetch, as a script on this machine or a browser would), the files' Object
 * Created events reach the ingestion worker, which extracts them; a background document and a bulk import come in
 * the same way; a refused upload and a refused file type change nothing; a delete takes the files with it.
 */
import { docxFile, pdfFile } from '../files/fixtures';
import { retryingAfter503, type TwinTest } from '../support/twin';

export const ingestingEvidence = (e2e: TwinTest): void => {
  // as a client calls under load: the documented 503 (the database busy; nothing changed) sent again after its Retry-After
  const call = retryingAfter503(e2e.call);

  let token = '';
  beforeAll(async () => {
    token = await e2e.token('investigator');
  });

  const EMAIL = [
    'From: Dana Buyer <dana@northwind.example>',
    'To: Sam Vendor <sam@harlow.example>',
    'Subject: Re: the March order',
    'Date: Tue, 12 Mar 2024 09:30:00 +0000',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Thanks for the holiday voucher. The order goes through this week.',
  ].join('\r\n');

  const put = (upload: { url: string; method: string; headers: Record<string, string> }, body: Uint8Array | string) =>
    fetch(upload.url, { method: upload.method, headers: upload.headers, body });

  /** Polls GET …/evidence/{id} until no attachment is awaited or being read. */
  const settled = async (path: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await call('GET', path, token);
      expect(res.status).toBe(200);
      if (res.body.attachments.every((a: { state: string }) => a.state !== 'awaiting_upload' && a.state !== 'pending')) return res.body;
      if (Date.now() > deadline) throw new Error(`still processing: ${JSON.stringify(res.body.attachments)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  test('an investigator brings a matter in: investigation, question, topic, an item with several files, each extracted', async () => {
    const created = await call('POST', '/api/investigations', token, { title: 'Harlow supplies', description: 'Kickback allegation' });
    expect(created.status).toBe(201);
    const investigation = created.body.investigation_id as string;
    expect(created.headers.get('location')).toBe(`/api/investigations/${investigation}`);
    const question = await call('POST', `/api/investigations/${investigation}/questions`, token, {
      text: 'Did the vendor pay the buyer?',
    });
    expect(question.status).toBe(201);
    expect((await call('POST', `/api/investigations/${investigation}/topics`, token, { title: 'Gifts' })).status).toBe(201);

    const files = {
      'voucher.eml': { type: 'message/rfc822', bytes: Buffer.from(EMAIL) },
      'order.pdf': { type: 'application/pdf', bytes: pdfFile([['Purchase order 7 for 240 laptops.'], ['Approved by Dana Buyer.']]) },
      'memo.docx': { type: 'application/octet-stream', bytes: await docxFile(['The buyer asked for the order to be split.']) },
      'ledger.csv': { type: 'text/csv', bytes: Buffer.from('date,amount\n2024-03-12,48000\n') },
    };
    const item = await call('POST', `/api/investigations/${investigation}/evidence`, token, {
      title: 'Buyer mailbox export',
      content: 'Exported from the buyer’s mailbox on 20 March.',
      linked_question_ids: [question.body.question_id],
      attachments: Object.entries(files).map(([name, f]) => ({ file_name: name, content_type: f.type, size_bytes: f.bytes.length })),
      idempotency_key: 'mailbox-export-1',
    });
    expect(item.status).toBe(201);
    const path = item.headers.get('location')!;
    expect(item.body.uploads).toHaveLength(4);
    // the URL the user follows is the twin's public endpoint, not an AWS host this machine cannot reach
    for (const upload of item.body.uploads) expect(upload.url).toMatch(new RegExp(`^${e2e.twin.aws.publicS3}/`));

    // a wrong type is refused by the signature: nothing stored, the file still awaited
    const first = item.body.uploads[0];
    const wrong = await put({ ...first, headers: { 'content-type': 'text/plain' } }, files['voucher.eml'].bytes);
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain('SignatureDoesNotMatch');
    expect((await call('GET', path, token)).body.attachments[0].state).toBe('awaiting_upload');

    const bodies = Object.values(files).map((f) => f.bytes);
    for (const [i, upload] of item.body.uploads.entries()) expect((await put(upload, bodies[i]!)).status).toBe(200);
    const done = await settled(path);
    expect(
      done.attachments.map((a: { file_name: string; content_type: string; state: string }) => [a.file_name, a.content_type, a.state]),
    ).toEqual([
      ['voucher.eml', 'message/rfc822', 'extracted'],
      ['order.pdf', 'application/pdf', 'extracted'],
      ['memo.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'extracted'],
      ['ledger.csv', 'text/csv', 'extracted'],
    ]);
    expect(done.attachments[1].pages).toBe(2);
    const email = await e2e.twin.database.db
      .selectFrom('attachments')
      .select('extracted_text')
      .where('id', '=', done.attachments[0].attachment_id)
      .executeTakeFirstOrThrow();
    expect(email.extracted_text).toContain('Subject: Re: the March order');
    expect(email.extracted_text).toContain('holiday voucher');

    // the same request again (a retry) adds nothing and answers the same item
    const again = await call('POST', `/api/investigations/${investigation}/evidence`, token, {
      title: 'Buyer mailbox export',
      content: 'Exported from the buyer’s mailbox on 20 March.',
      linked_question_ids: [question.body.question_id],
      attachments: Object.entries(files).map(([name, f]) => ({ file_name: name, content_type: f.type, size_bytes: f.bytes.length })),
      idempotency_key: 'mailbox-export-1',
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.evidence_id).toBe(item.body.evidence_id);
    expect(again.body.uploads).toEqual([]);

    // the file opens from where the user is
    const view = await fetch(`${e2e.twin.url}${done.attachments[3].view_path}`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'follow',
    });
    expect(view.status).toBe(200);
    expect(await view.text()).toContain('2024-03-12,48000');

    const status = await call('GET', `/api/investigations/${investigation}/ingestion`, token);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ items_total: 1, items_failed: 0, imports_in_progress: 0 });
    expect(status.body.chunks_total).toBeGreaterThanOrEqual(5);

    // deleting the item takes its files: the link it had now finds nothing
    const deleted = await call('DELETE', path, token);
    expect(deleted.body).toMatchObject({ deleted: true, attachments: 4 });
    expect((await fetch(view.url)).status).toBe(404);
  }, 120_000);

  test('a background document and a bulk import come in the same way; a file type the service cannot read is refused', async () => {
    const investigation = (await call('POST', '/api/investigations', token, { title: 'Imports' })).body.investigation_id as string;
    const policy = Buffer.from('Gifts above USD 50 must be declared to compliance.');
    const doc = await call('POST', `/api/investigations/${investigation}/background-documents`, token, {
      title: 'Gift policy',
      file_name: 'gift-policy.txt',
      content_type: 'text/plain',
      size_bytes: policy.length,
      included_for_ai: false,
    });
    expect(doc.status).toBe(201);
    expect((await put(doc.body.upload, policy)).status).toBe(200);

    const lines = [
      JSON.stringify({ title: 'Invoice 1', content: 'Invoice 1 for 12 laptops.' }),
      JSON.stringify({
        title: 'Invoice 2',
        attachments: [{ file_name: 'inv2.txt', content_type: 'text/plain', text: 'Invoice 2 for 40 laptops.' }],
      }),
      JSON.stringify({ title: '' }),
    ].join('\n');
    const started = await call('POST', `/api/investigations/${investigation}/imports`, token, {
      format: 'ndjson',
      size_bytes: Buffer.byteLength(lines),
    });
    expect(started.status).toBe(201);
    expect((await put(started.body.upload, lines)).status).toBe(200);
    const importPath = started.headers.get('location')!;
    const deadline = Date.now() + 60_000;
    let progress = (await call('GET', importPath, token)).body;
    while (progress.status !== 'complete' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      progress = (await call('GET', importPath, token)).body;
    }
    expect(progress).toMatchObject({ status: 'complete', lines_total: 3, lines_done: 3, lines_failed: 1 });
    expect(progress.errors).toEqual([{ line: 3, field: 'title', message: 'must not be empty' }]);

    const refused = await call('POST', `/api/investigations/${investigation}/evidence`, token, {
      title: 'Photo',
      attachments: [{ file_name: 'photo.png', content_type: 'image/png', size_bytes: 100 }],
    });
    expect(refused.status).toBe(415);
    expect(refused.body.error.code).toBe('unsupported_file_type');

    const listed = await call('GET', `/api/investigations/${investigation}/evidence`, token);
    expect(listed.body.items.map((i: { title: string }) => i.title).sort()).toEqual(['Gift policy', 'Invoice 1', 'Invoice 2']);
    const document = await e2e.twin.database.db
      .selectFrom('background_documents')
      .select(['extraction_status', 'included_for_ai'])
      .where('id', '=', doc.body.background_document_id)
      .executeTakeFirstOrThrow();
    expect(document).toEqual({ extraction_status: 'extracted', included_for_ai: false });
  }, 120_000);
};
