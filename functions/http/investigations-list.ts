/** GET /api/investigations — the caller's organization's investigations. */
import { database } from '../../layers/core/db/connection';
import { listInvestigations } from '../../layers/core/repositories/investigations';
import { httpRoute, requireOrg } from '../../layers/core/http/route';

export const handler = httpRoute(async ({ caller }) => ({
  body: { investigations: await listInvestigations(await database(), requireOrg(caller).organizationId) },
}));
