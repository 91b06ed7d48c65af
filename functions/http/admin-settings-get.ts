/** GET /api/admin/settings — the runtime settings: currently none. */
import { adminSettingsGetRoute } from '../../layers/core/admin/contract';
import { listSettings } from '../../layers/core/admin/settings';
import { route } from '../../layers/core/http/route';

export const handler = route(adminSettingsGetRoute, async () => ({ body: listSettings() }));
