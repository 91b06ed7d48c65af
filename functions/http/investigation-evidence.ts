/** GET /api/investigations/{investigation_id}/evidence — evidence items with their attachments, then background documents; paginated. */
import { database } from '../../layers/core/db/connection';
import { listEvidence } from '../../layers/core/evidence/listing';
import { contracts } from '../../layers/core/http/contracts';
import { notFound } from '../../layers/core/http/errors';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller, params, query }) => {
  const { investigation_id } = parseWith(contracts['investigation-evidence'].params, params);
  const page = parseWith(contracts['investigation-evidence'].query, query);
  const org = requireOrg(caller);
  const evidence = await listEvidence(await database(), org.organizationId, investigation_id, page);
  if (!evidence) throw notFound('The investigation');
  return { body: evidence };
});
