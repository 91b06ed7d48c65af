/** GET /api/investigations[?limit=1..200 (50)][&cursor=<next_cursor>] — the caller's organization's investigations, newest first. */
import { database } from '../../layers/core/db/connection';
import { contracts } from '../../layers/core/http/contracts';
import { creationPlaceSchema, decodeCursor } from '../../layers/core/http/pagination';
import { httpRoute, parseWith, requireOrg } from '../../layers/core/http/route';
import { listInvestigations } from '../../layers/core/repositories/investigations';

export const handler = httpRoute(async ({ caller, query }) => {
  const { limit, cursor } = parseWith(contracts['investigations-list'].query, query);
  return {
    body: await listInvestigations(await database(), requireOrg(caller).organizationId, {
      limit, ...(cursor && { after: decodeCursor(cursor, creationPlaceSchema) }),
    }),
  };
});
