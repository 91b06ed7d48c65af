/** GET /api/investigations[?limit=1..200 (50)][&cursor=<next_cursor>] — the caller's organization's investigations, newest first. */
import { database } from '#core/db/connection';
import { investigationsListRoute } from '#core/evidence/contract';
import { requireOrg, route } from '#core/http/route';
import { creationPlaceSchema, decodeCursor } from '#core/pagination';
import { listInvestigations } from '#core/repositories/investigations';

export const handler = route(investigationsListRoute, async ({ caller, query: { limit, cursor } }) => ({
  body: await listInvestigations(await database(), requireOrg(caller).organizationId, {
    limit,
    ...(cursor && { after: decodeCursor(cursor, creationPlaceSchema) }),
  }),
}));
