/**
 * GET /api/storage/view?attachment_id=<uuid> | ?background_document_id=<uuid> [&redirect=false] — the
 * file viewer: 302 to a presigned S3 URL valid for 5 minutes (or, with redirect=false, 200 with that
 * link as JSON). Only files of the caller's organization; any other id is 404.
 */
import { database } from '#core/db/connection';
import { storageViewRoute } from '#core/files/contract';
import { s3FileLinker } from '#core/files/object-store';
import { fileViewLink } from '#core/files/view';
import { requireOrg, route } from '#core/http/route';

export const handler = route(storageViewRoute, async ({ caller, query: { attachment_id, background_document_id, redirect } }) => {
  const org = requireOrg(caller);
  // the contract admits exactly one of the two ids
  const [kind, id] = attachment_id ? (['attachment', attachment_id] as const) : (['background_document', background_document_id!] as const);
  const link = await fileViewLink({ db: await database(), links: s3FileLinker() }, org.organizationId, kind, id);
  if (redirect === 'false') return { body: link };
  return { status: 302, body: link, headers: { location: link.url } };
});
