/** PATCH /api/investigations/{investigation_id}/evidence/{evidence_id} — changed text is chunked again and re-embedded. */
import { database } from '#core/db/connection';
import { wakeEmbedding } from '#core/embeddings/wake';
import { requireOrg, route } from '#core/http/route';
import { evidenceUpdateRoute } from '#core/ingestion/contract';
import { updateEvidence } from '#core/ingestion/evidence';

export const handler = route(evidenceUpdateRoute, async ({ caller, params: { investigation_id, evidence_id }, body }) => ({
  body: await updateEvidence(
    { db: await database(), wake: (id) => wakeEmbedding(id) },
    requireOrg(caller).organizationId,
    investigation_id,
    evidence_id,
    body,
  ),
}));
