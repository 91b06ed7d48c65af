/** GET /api/investigations/{investigation_id} — one investigation with its questions and topics. */
import { database } from '../../layers/core/db/connection';
import { notFound } from '../../layers/core/http/errors';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';
import { getInvestigation } from '../../layers/core/repositories/investigations';

export const handler = httpRoute(async ({ caller, params }) => {
  const { investigation_id } = parseWith(contracts['investigation-get'].params, params);
  const investigation = await getInvestigation(await database(), requireOrg(caller).organizationId, investigation_id);
  if (!investigation) throw notFound('The investigation');
  return { body: investigation };
});
