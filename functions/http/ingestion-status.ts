/** GET /api/investigations/{investigation_id}/ingestion — items ready, processing and failed; chunks waiting. */
import { database } from '#core/db/connection';
import { requireOrg, route } from '#core/http/route';
import { ingestionStatusRoute } from '#core/ingestion/contract';
import { ingestionStatus } from '#core/ingestion/status';

export const handler = route(ingestionStatusRoute, async ({ caller, params: { investigation_id } }) => ({
  body: await ingestionStatus(await database(), requireOrg(caller).organizationId, investigation_id),
}));
