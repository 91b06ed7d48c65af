/** POST …/attachments/{attachment_id}/upload — a new upload URL for a file that has not arrived. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { attachmentUploadRoute } from '#core/ingestion/contract';
import { reissueUpload } from '#core/ingestion/evidence';
import { s3Presigner } from '#core/ingestion/presign';

export const handler = route(attachmentUploadRoute, async ({ caller, params: { investigation_id, evidence_id, attachment_id } }) => ({
  body: await reissueUpload({ db: await database(), presign: s3Presigner() }, requireOrg(caller).organizationId, {
    investigationId: investigation_id,
    evidenceId: evidence_id,
    attachmentId: attachment_id,
  }),
}));
