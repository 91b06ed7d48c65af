/** GET /api/investigations/{investigation_id} — one investigation with its questions and topics. */
import { database } from '#core/db/connection';
import { notFound } from '#core/errors';
import { investigationGetRoute } from '#core/evidence/contract';
import { requireOrg, route } from '#core/http/route';
import { getInvestigation } from '#core/repositories/investigations';

export const handler = route(investigationGetRoute, async ({ caller, params: { investigation_id } }) => {
  const investigation = await getInvestigation(await database(), requireOrg(caller).organizationId, investigation_id);
  if (!investigation) throw notFound('The investigation');
  return { body: investigation };
});
