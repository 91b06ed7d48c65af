/** GET /api/health — 200 when every component answers, 503 naming the ones that do not. */
import { checkHealth } from '../../layers/core/health';
import { route } from '../../layers/core/http/route';
import { healthRoute } from '../../layers/core/operations/contract';

export const handler = route(healthRoute, async () => {
  const report = await checkHealth();
  return { status: report.status === 'ok' ? 200 : 503, body: report };
});
