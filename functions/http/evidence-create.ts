/**
 * POST /api/investigations/{investigation_id}/evidence — an evidence item: its text chunked at once and queued for
 * embedding, its files answered with presigned uploads. A repeated idempotency_key answers the first result again.
 */
import { database } from '#core/db/connection';
import { wakeEmbedding } from '#core/embeddings/wake';
import { requireOrg, route } from '#core/http/route';
import { evidenceCreateRoute } from '#core/ingestion/contract';
import { createEvidence } from '#core/ingestion/evidence';
import { s3Presigner } from '#core/ingestion/presign';

export const handler = route(evidenceCreateRoute, async ({ caller, params: { investigation_id }, body }) => {
  const { replayed, evidence } = await createEvidence(
    { db: await database(), presign: s3Presigner(), wake: (id) => wakeEmbedding(id) },
    requireOrg(caller),
    investigation_id,
    body,
  );
  return {
    body: evidence,
    headers: {
      location: `/api/investigations/${investigation_id}/evidence/${evidence.evidence_id}`,
      ...(replayed && { 'idempotent-replayed': 'true' }),
    },
  };
});
