/** GET /api/investigations/{investigation_id}/evidence — evidence items with their attachments, then background documents; paginated. */
import { database } from '#core/db/connection';
import { notFound } from '#core/errors';
import { investigationEvidenceRoute } from '#core/evidence/contract';
import { listEvidence } from '#core/evidence/listing';
import { requireOrg, route } from '#core/http/route';

export const handler = route(investigationEvidenceRoute, async ({ caller, params: { investigation_id }, query: page }) => {
  const evidence = await listEvidence(await database(), requireOrg(caller).organizationId, investigation_id, page);
  if (!evidence) throw notFound('The investigation');
  return { body: evidence };
});
