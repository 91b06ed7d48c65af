/** POST /api/investigations — a new investigation in the caller's organization; 201 with its Location. */
import { database } from '#core/db/connection';
import { investigationCreateRoute } from '#core/evidence/contract';
import { requireOrg, route } from '#core/http/route';
import { createInvestigation } from '#core/ingestion/investigations';

export const handler = route(investigationCreateRoute, async ({ caller, body }) => {
  const created = await createInvestigation(await database(), requireOrg(caller), body);
  return { body: created, headers: { location: `/api/investigations/${created.investigation_id}` } };
});
