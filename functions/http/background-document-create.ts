/** POST /api/investigations/{investigation_id}/background-documents — a presigned upload; extracted when it arrives. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { createBackgroundDocument } from '#core/ingestion/background-documents';
import { backgroundDocumentCreateRoute } from '#core/ingestion/contract';
import { s3Presigner } from '#core/ingestion/presign';

export const handler = route(backgroundDocumentCreateRoute, async ({ caller, params: { investigation_id }, body }) => ({
  body: await createBackgroundDocument({ db: await database(), presign: s3Presigner() }, requireOrg(caller), investigation_id, body),
  headers: { location: `/api/investigations/${investigation_id}` },
}));
