/** GET /api/admin/settings — the runtime settings: currently none. */
import { adminSettingsGetRoute } from '#core/admin/contract';
import { listSettings } from '#core/admin/settings';
import { route } from '#core/http/route';

export const handler = route(adminSettingsGetRoute, async () => ({ body: listSettings() }));
