/**
 * The file viewer's link on the database (PGlite, or PostgreSQL with TEST_DATABASE_URL): which file
 * of which organization, and what the presigned URL is asked to make S3 answer with.
 */
import { randomUUID } from 'node:crypto';
import type { FileLinker, ViewUrlOptions } from '#core/files/object-store';
import { VIEW_URL_EXPIRY_SECONDS } from '#core/files/formats';
import { fileViewLink } from '#core/files/view';
import { fileViewLinkSchema } from '#core/files/wire';
import { DomainError } from '#core/errors';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();

/** Records what it was asked to sign. */
const signed: { key: string; options: ViewUrlOptions }[] = [];
const links: FileLinker = {
  viewUrl: async (key, options) => {
    signed.push({ key, options });
    return `https://files.example/${encodeURI(key)}?signature=x`;
  },
};
const NOW = new Date('2025-03-01T10:00:00.000Z');
const view = (organizationId: string, kind: 'attachment' | 'background_document', id: string) =>
  fileViewLink({ db, links, now: () => NOW }, organizationId, kind, id);

let orgA: string;
let orgB: string;
let attachmentId: string;
let documentId: string;
let htmlAttachmentId: string;

beforeAll(async () => {
  const orgs = await db
    .insertInto('organizations')
    .values([{ name: `A ${randomUUID()}` }, { name: `B ${randomUUID()}` }])
    .returning('id')
    .execute();
  [orgA, orgB] = orgs.map((o) => o.id) as [string, string];
  const inv = await db
    .insertInto('investigations')
    .values({ organization_id: orgA, title: 'Kickbacks' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const item = await db
    .insertInto('evidence_items')
    .values({ investigation_id: inv.id, title: 'Email' })
    .returning('id')
    .executeTakeFirstOrThrow();
  attachmentId = (
    await db
      .insertInto('attachments')
      .values({
        evidence_item_id: item.id,
        file_name: 'Invoice “41”.pdf',
        content_type: 'application/pdf',
        size_bytes: 2048,
        storage_key: 'org/a/attachments/1/invoice.pdf',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  htmlAttachmentId = (
    await db
      .insertInto('attachments')
      .values({
        evidence_item_id: item.id,
        file_name: 'page.html',
        content_type: 'text/html',
        size_bytes: 10,
        storage_key: 'org/a/attachments/2/page.html',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  documentId = (
    await db
      .insertInto('background_documents')
      .values({
        investigation_id: inv.id,
        title: 'Policy',
        file_name: 'policy.txt',
        content_type: 'text/plain; charset=utf-8',
        size_bytes: 12,
        storage_key: 'org/a/background/1/policy.txt',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

beforeEach(() => {
  signed.length = 0;
});

it("signs a short-lived link to an attachment of the caller's organization, inline with its name and type", async () => {
  const link = await view(orgA, 'attachment', attachmentId);
  expect(fileViewLinkSchema.parse(link)).toEqual(link);
  expect(link).toMatchObject({
    kind: 'attachment',
    id: attachmentId,
    file_name: 'Invoice “41”.pdf',
    content_type: 'application/pdf',
    size_bytes: 2048,
    url: 'https://files.example/org/a/attachments/1/invoice.pdf?signature=x',
    expires_in_seconds: VIEW_URL_EXPIRY_SECONDS,
    expires_at: '2025-03-01T10:05:00.000Z',
  });
  expect(signed).toEqual([
    {
      key: 'org/a/attachments/1/invoice.pdf',
      options: {
        contentType: 'application/pdf',
        contentDisposition: `inline; filename="Invoice _41_.pdf"; filename*=UTF-8''Invoice%20%E2%80%9C41%E2%80%9D.pdf`,
        expiresInSeconds: 300,
      },
    },
  ]);
});

it('signs a link to a background document, keeping its charset', async () => {
  const link = await view(orgA, 'background_document', documentId);
  expect(link).toMatchObject({ kind: 'background_document', id: documentId, content_type: 'text/plain; charset=utf-8' });
  expect(signed[0]!.options.contentDisposition).toBe(`inline; filename="policy.txt"; filename*=UTF-8''policy.txt`);
});

it('sends a type a browser would run (HTML) as a download', async () => {
  await view(orgA, 'attachment', htmlAttachmentId);
  expect(signed[0]!.options).toMatchObject({
    contentType: 'text/html',
    contentDisposition: expect.stringMatching(/^attachment; filename="page.html"/),
  });
});

it.each([
  ["another organization's attachment", () => view(orgB, 'attachment', attachmentId), 'The attachment was not found.'],
  ["another organization's document", () => view(orgB, 'background_document', documentId), 'The background document was not found.'],
  [
    'an attachment id asked for as a document',
    () => view(orgA, 'background_document', attachmentId),
    'The background document was not found.',
  ],
  ['an unknown id', () => view(orgA, 'attachment', randomUUID()), 'The attachment was not found.'],
])('%s is not found, and nothing is signed', async (_what, call, message) => {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect(error).toMatchObject({ kind: 'not_found', code: 'not_found', message });
  expect(signed).toEqual([]);
});
