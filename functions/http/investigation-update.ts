/** PATCH /api/investigations/{investigation_id} — change the title or description. */
import { database } from '#core/db/connection';
import { investigationUpdateRoute } from '#core/evidence/contract';
import { requireOrg, route } from '#core/http/route';
import { updateInvestigation } from '#core/ingestion/investigations';

export const handler = route(investigationUpdateRoute, async ({ caller, params: { investigation_id }, body }) => ({
  body: await updateInvestigation(await database(), requireOrg(caller).organizationId, investigation_id, body),
}));
