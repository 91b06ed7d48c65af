/** GET /api/health — 200 when every component answers, 503 naming the ones that do not. */
import { checkHealth } from '#core/health';
import { route } from '#core/http/route';
import { healthRoute } from '#core/operations/contract';

export const handler = route(healthRoute, async () => {
  const report = await checkHealth();
  return { status: report.status === 'ok' ? 200 : 503, body: report };
});
