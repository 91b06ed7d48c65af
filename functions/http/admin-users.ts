/** GET /api/admin/users[?limit=1..200 (50)][&cursor=<next_cursor>] — users of every organization with their AI usage. */
import { adminUsersRoute } from '#core/admin/contract';
import { listUsers } from '#core/admin/users';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';

export const handler = route(adminUsersRoute, async ({ query }) => ({ body: await listUsers(await database(), query) }));
