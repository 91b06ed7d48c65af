/** GET /api/admin/settings — the runtime settings: currently none. */
import { listSettings } from '../../layers/core/admin/settings';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async () => ({ body: listSettings() }));
