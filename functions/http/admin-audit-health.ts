/** GET /api/admin/audit-health[?window_hours=1..720 (24)] — audit action types whose writes failed in the window. */
import { auditHealth } from '../../layers/core/admin/audit-health';
import { adminAuditHealthRoute } from '../../layers/core/admin/contract';
import { database } from '../../layers/core/db/connection';
import { route } from '../../layers/core/http/route';

export const handler = route(adminAuditHealthRoute, async ({ query }) => ({ body: await auditHealth(await database(), query) }));
