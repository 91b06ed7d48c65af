/** GET /api/investigations/{investigation_id}/evidence/{evidence_id} — one item, its files and how far each has come in. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { evidenceGetRoute } from '#core/ingestion/contract';
import { getEvidence } from '#core/ingestion/evidence';

export const handler = route(evidenceGetRoute, async ({ caller, params: { investigation_id, evidence_id } }) => ({
  body: await getEvidence(await database(), requireOrg(caller).organizationId, investigation_id, evidence_id),
}));
