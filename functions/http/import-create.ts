/** POST /api/investigations/{investigation_id}/imports — a bulk import: a presigned upload of the file; 201. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { importCreateRoute } from '#core/ingestion/contract';
import { createImport } from '#core/ingestion/imports';
import { s3Presigner } from '#core/ingestion/presign';

export const handler = route(importCreateRoute, async ({ caller, params: { investigation_id }, body }) => {
  const created = await createImport({ db: await database(), presign: s3Presigner() }, requireOrg(caller), investigation_id, body);
  return { body: created, headers: { location: `/api/investigations/${investigation_id}/imports/${created.import_id}` } };
});
