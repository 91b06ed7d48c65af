/** GET /api/admin/users[?limit=1..200 (50)][&cursor=<next_cursor>] — users of every organization with their AI usage. */
import { adminUsersRoute } from '../../layers/core/admin/contract';
import { listUsers } from '../../layers/core/admin/users';
import { database } from '../../layers/core/db/connection';
import { route } from '../../layers/core/http/route';

export const handler = route(adminUsersRoute, async ({ query }) => ({ body: await listUsers(await database(), query) }));
