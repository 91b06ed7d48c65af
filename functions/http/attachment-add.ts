/** POST …/evidence/{evidence_id}/attachments — more files for an item: presigned uploads; 201. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { attachmentAddRoute } from '#core/ingestion/contract';
import { addAttachments } from '#core/ingestion/evidence';
import { s3Presigner } from '#core/ingestion/presign';

export const handler = route(attachmentAddRoute, async ({ caller, params: { investigation_id, evidence_id }, body }) => ({
  body: await addAttachments(
    { db: await database(), presign: s3Presigner() },
    requireOrg(caller).organizationId,
    investigation_id,
    evidence_id,
    body.attachments,
  ),
  headers: { location: `/api/investigations/${investigation_id}/evidence/${evidence_id}` },
}));
