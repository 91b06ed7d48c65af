/** DELETE /api/investigations/{investigation_id}/evidence/{evidence_id} — the item, its files, chunks and embeddings. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { evidenceDeleteRoute } from '#core/ingestion/contract';
import { deleteEvidence } from '#core/ingestion/evidence';
import { s3Remover } from '#core/storage';

export const handler = route(evidenceDeleteRoute, async ({ caller, params: { investigation_id, evidence_id } }) => ({
  body: await deleteEvidence(
    { db: await database(), files: s3Remover() },
    requireOrg(caller).organizationId,
    investigation_id,
    evidence_id,
  ),
}));
