/** GET /api/admin/audit-health[?window_hours=1..720 (24)] — audit action types whose writes failed in the window. */
import { auditHealth } from '#core/admin/audit-health';
import { adminAuditHealthRoute } from '#core/admin/contract';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(adminAuditHealthRoute, async ({ query }) => ({ body: await auditHealth(await database(), query) }));
