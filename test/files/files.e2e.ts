/**
 * The files routes end to end through the twin: GET /api/storage/view redirects to a presigned URL on
 * the files bucket (signed by the function's role for the bucket's AWS host, which the twin's gateway maps to
 * its public S3 endpoint) that really downloads the file with a plain fetch; POST /api/background/extract-text reads a PDF from
 * that bucket, stores and chunks its text, and the embedding sweeper (cron route, Bedrock stand-in)
 * then embeds it. Runs on PGlite, or on real PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { s3FileReader } from '#core/files/object-store';
import { extractionReportSchema, fileViewLinkSchema } from '#core/files/wire';
import { s3Storage } from '#core/storage';
import type { Twin } from '../../lib/twin/twin';
import type { TwinTest } from '../support/twin';
import { CONTENT_TYPES, pdfFile, pngFile, truncatedPdf } from './fixtures';
import { setEnv } from '../support/config-env';
import { until } from '../support/until';

export const filesRoutes = (e2e: TwinTest): void => {
  let twin: Twin;
  let db: Kysely<Database>;

  interface Org {
    id: string;
    investigationId: string;
    token: string;
  }
  let alpha: Org;
  let beta: Org;
  let attachmentId: string;
  let attachmentKey: string;
  const attachmentBytes = pdfFile([['Invoice BIS-1041: consulting services, 12,000.']]);
  let policyId: string;
  const policyText = 'Gifts above 50 must be declared to compliance.\n\nNo exceptions — not even for Zoë.\n';

  const newOrg = async (name: string): Promise<Org> => {
    const id = (await db.insertInto('organizations').values({ name }).returning('id').executeTakeFirstOrThrow()).id;
    const investigationId = (
      await db
        .insertInto('investigations')
        .values({ organization_id: id, title: `${name} inquiry` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const token = await twin.token({
      subject: `sub-${randomUUID()}`,
      email: `${randomUUID()}@example.test`,
      role: 'investigator',
      organizationId: id,
    });
    return { id, investigationId, token };
  };

  /** Puts the file in the twin's bucket and adds its background document to the organization's investigation. */
  const addDocument = async (org: Org, fileName: string, contentType: string, bytes: Uint8Array | string) => {
    const key = `org/${org.id}/inv/${org.investigationId}/background/${randomUUID()}/${fileName}`;
    await s3Storage().put(key, bytes, contentType);
    return (
      await db
        .insertInto('background_documents')
        .values({
          investigation_id: org.investigationId,
          title: fileName,
          file_name: fileName,
          content_type: contentType,
          size_bytes: typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length,
          storage_key: key,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };

  beforeAll(async () => {
    twin = e2e.twin;
    db = twin.database.db;
    // this process puts and reads files as an operator would, straight in the twin's S3 (no function's role)
    setEnv({
      FILES_BUCKET: twin.aws.bucket,
      AWS_ENDPOINT_URL_S3: twin.aws.endpoint,
      AWS_REGION: twin.plan.region,
      AWS_ACCESS_KEY_ID: 'operator',
      AWS_SECRET_ACCESS_KEY: 'operator',
    });
    alpha = await newOrg('Alpha Compliance');
    beta = await newOrg('Beta Insurance');
    const item = await db
      .insertInto('evidence_items')
      .values({ investigation_id: alpha.investigationId, title: 'Invoice' })
      .returning('id')
      .executeTakeFirstOrThrow();
    attachmentKey = `org/${alpha.id}/inv/${alpha.investigationId}/attachments/${randomUUID()}/BIS-1041.pdf`;
    await s3Storage().put(attachmentKey, attachmentBytes, CONTENT_TYPES.pdf);
    attachmentId = (
      await db
        .insertInto('attachments')
        .values({
          evidence_item_id: item.id,
          file_name: 'Invoice BIS-1041.pdf',
          content_type: CONTENT_TYPES.pdf,
          size_bytes: attachmentBytes.length,
          storage_key: attachmentKey,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    policyId = await addDocument(alpha, 'gift policy.txt', 'text/plain; charset=utf-8', policyText);
  }, 60_000);

  const view = (query: string, token?: string, redirect: 'manual' | 'follow' = 'manual') =>
    fetch(`${twin.url}/api/storage/view?${query}`, { redirect, headers: token ? { authorization: `Bearer ${token}` } : {} });

  describe('GET /api/storage/view', () => {
    it('redirects to a presigned URL on the bucket that downloads the attachment', async () => {
      const res = await view(`attachment_id=${attachmentId}`, alpha.token);
      expect(res.status).toBe(302);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const location = new URL(res.headers.get('location')!);
      // signed for https://<bucket>.s3.<region>.amazonaws.com/<key>, answered as the twin's public endpoint's path-style URL
      expect(location.origin).toBe(twin.aws.publicS3);
      expect(location.pathname).toBe(`/${twin.aws.bucket}/${attachmentKey}`);
      expect(location.searchParams.get('X-Amz-Credential')).toMatch(new RegExp(`/${twin.plan.region}/s3/aws4_request$`));
      expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
      expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(location.searchParams.get('response-content-type')).toBe('application/pdf');
      expect(location.searchParams.get('response-content-disposition')).toBe(
        `inline; filename="Invoice BIS-1041.pdf"; filename*=UTF-8''Invoice%20BIS-1041.pdf`,
      );
      // the body says the same, for clients that read it
      expect(fileViewLinkSchema.parse(await res.json())).toMatchObject({ kind: 'attachment', id: attachmentId, url: location.toString() });

      const file = await fetch(location);
      expect(file.status).toBe(200);
      // S3 answers with the signed response-* overrides
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toBe(
        `inline; filename="Invoice BIS-1041.pdf"; filename*=UTF-8''Invoice%20BIS-1041.pdf`,
      );
      expect(Buffer.from(await file.arrayBuffer()).equals(attachmentBytes)).toBe(true);
    });

    it('a browser following the redirect gets the background document itself', async () => {
      const file = await view(`background_document_id=${policyId}`, alpha.token, 'follow');
      expect([file.status, file.redirected, await file.text()]).toEqual([200, true, policyText]);
    });

    it('with redirect=false answers the link as JSON', async () => {
      const res = await e2e.call('GET', `/api/storage/view?background_document_id=${policyId}&redirect=false`, alpha.token);
      expect(res.status).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      const link = fileViewLinkSchema.parse(res.body);
      expect(link).toMatchObject({
        kind: 'background_document',
        id: policyId,
        file_name: 'gift policy.txt',
        content_type: 'text/plain; charset=utf-8',
        expires_in_seconds: 300,
      });
      expect(await (await fetch(link.url)).text()).toBe(policyText);
    });

    it("a link to a file gone from the bucket gets S3's 404 (the viewer's role may list the bucket, so S3 says so)", async () => {
      const gone = await db
        .insertInto('background_documents')
        .values({
          investigation_id: alpha.investigationId,
          title: 'Gone',
          file_name: 'gone.txt',
          content_type: 'text/plain',
          size_bytes: 1,
          storage_key: `org/${alpha.id}/inv/${alpha.investigationId}/background/${randomUUID()}/gone.txt`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const res = await view(`background_document_id=${gone.id}`, alpha.token);
      expect(res.status).toBe(302);
      const file = await fetch(res.headers.get('location')!);
      expect(file.status).toBe(404);
      expect(await file.text()).toContain('NoSuchKey');
    });

    it("never serves another organization's file, nor says it exists", async () => {
      for (const query of [`attachment_id=${attachmentId}`, `background_document_id=${policyId}`, `attachment_id=${randomUUID()}`]) {
        const res = await view(query, beta.token);
        expect(res.status).toBe(404);
        expect(res.headers.get('location')).toBeNull();
        expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
      }
    });

    it.each([
      ['no id', '', ''],
      ['both ids', `attachment_id=${randomUUID()}&background_document_id=${randomUUID()}`, ''],
      ['a malformed id', 'attachment_id=42', 'attachment_id'],
      ['a bad redirect flag', `attachment_id=${randomUUID()}&redirect=maybe`, 'redirect'],
    ])('%s is a 400 naming the problem', async (_what, query, path) => {
      const res = await e2e.call('GET', `/api/storage/view?${query}`, alpha.token);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details).toEqual([expect.objectContaining({ path })]);
      if (path === '') expect(res.body.error.details[0].message).toBe('give exactly one of attachment_id or background_document_id');
    });

    it('needs a token', async () => {
      expect((await view(`attachment_id=${attachmentId}`)).status).toBe(401);
    });
  });

  describe('POST /api/background/extract-text', () => {
    const extract = (id: unknown, token = alpha.token) =>
      e2e.call('POST', '/api/background/extract-text', token, { background_document_id: id });
    const chunks = (id: string) =>
      db
        .selectFrom('text_chunks')
        .select(['chunk_index', 'embedding'])
        .where('background_document_id', '=', id)
        .orderBy('chunk_index')
        .execute();

    it('extracts a PDF from the bucket, chunks it, and it is embedded (the wake-up; the sweeper as backstop)', async () => {
      const id = await addDocument(
        alpha,
        'procedure.pdf',
        CONTENT_TYPES.pdf,
        pdfFile([
          ['Payments to Harlow Consulting were approved by the regional director without a second signature.'],
          ['Internal audit reviewed the approvals on 12 February and found three exceptions.'],
        ]),
      );
      const res = await extract(id);
      expect(res.status).toBe(200);
      const report = extractionReportSchema.parse(res.body);
      expect(report).toMatchObject({
        background_document_id: id,
        format: 'pdf',
        pages: 2,
        chunks: 1,
        replaced_chunks: 0,
        embedding_status: 'pending',
      });
      const row = await db
        .selectFrom('background_documents')
        .select(['extracted_text', 'extraction_status'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.extraction_status).toBe('extracted');
      expect(row.extracted_text!.replace(/\s+/g, ' ')).toContain('three exceptions');
      expect(report.characters).toBe(row.extracted_text!.length);
      expect((await chunks(id)).map((c) => c.embedding)).toEqual([null]);

      // the extraction woke the embedding worker; the sweeper, the backstop, fails nothing meanwhile (it skips what the
      // worker holds), and the chunk gets its vector
      const sweep = await e2e.call('POST', '/api/admin/cron/embedding-sweeper', twin.cronSecret);
      expect(sweep.status).toBe(200);
      expect(sweep.body).toMatchObject({ failed: 0 });
      const embedded = await until(
        'the chunk embedded',
        async () => {
          const rows = await chunks(id);
          return rows.every((c) => c.embedding !== null) ? rows : undefined;
        },
        60_000,
      );
      expect(embedded).toHaveLength(1);
    });

    it('re-extracting the text document replaces its chunks', async () => {
      const first = await extract(policyId);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ format: 'text', characters: policyText.trim().length, replaced_chunks: 0 });
      const again = await extract(policyId);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ replaced_chunks: first.body.chunks });
      expect(await chunks(policyId)).toHaveLength(first.body.chunks);
    });

    it.each([
      ['an image', 'photo.png', CONTENT_TYPES.png, pngFile(), 415, 'unsupported_file_type'],
      ['a damaged PDF', 'damaged.pdf', CONTENT_TYPES.pdf, truncatedPdf(), 422, 'unreadable_file'],
    ])('%s is refused with a clear error and nothing stored', async (_what, fileName, contentType, bytes, status, code) => {
      const id = await addDocument(alpha, fileName, contentType, bytes);
      const res = await extract(id);
      expect(res.status).toBe(status);
      expect(res.body.error).toMatchObject({ code, message: expect.stringMatching(/\w/) });
      expect(
        await db
          .selectFrom('background_documents')
          .select(['extracted_text', 'extraction_status'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ extracted_text: null, extraction_status: 'pending' });
      expect(await chunks(id)).toEqual([]);
      expect(await db.selectFrom('embedding_sources').select('id').where('source_id', '=', id).execute()).toEqual([]);
    });

    it('a document whose file is gone from the bucket is a 422 saying so (S3 answers 404 because the role may list the bucket)', async () => {
      const gone = await db
        .insertInto('background_documents')
        .values({
          investigation_id: alpha.investigationId,
          title: 'Gone',
          file_name: 'gone.pdf',
          content_type: CONTENT_TYPES.pdf,
          size_bytes: 10,
          storage_key: `org/${alpha.id}/inv/${alpha.investigationId}/background/${randomUUID()}/gone.pdf`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const res = await extract(gone.id);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'file_missing', message: expect.stringContaining('gone.pdf') });
    });

    it("another organization's document is not found; a bad body is a 400", async () => {
      const other = await extract(policyId, beta.token);
      expect(other.status).toBe(404);
      expect(other.body.error.code).toBe('not_found');
      expect((await extract('not-a-uuid')).status).toBe(400);
      const extra = await e2e.call('POST', '/api/background/extract-text', alpha.token, { background_document_id: policyId, force: true });
      expect(extra.status).toBe(400);
    });
  });

  describe('the bucket reader', () => {
    it('tells a missing file and a file over the limit apart without downloading the latter', async () => {
      const reader = s3FileReader();
      expect(await reader.read(`missing/${randomUUID()}`, 1000)).toEqual({ status: 'missing' });
      const key = `org/${alpha.id}/big.txt`;
      await s3Storage().put(key, 'x'.repeat(5000), 'text/plain');
      expect(await reader.read(key, 4999)).toEqual({ status: 'too_large', sizeBytes: 5000 });
      const ok = await reader.read(key, 5000);
      expect(ok.status === 'ok' && Buffer.from(ok.bytes).toString()).toBe('x'.repeat(5000));
    });
  });
};
