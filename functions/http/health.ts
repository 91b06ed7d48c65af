/** GET /api/health — 200 when every component answers, 503 naming the ones that do not. */
import { checkHealth } from '../../layers/core/health';
import { httpRoute } from '../../layers/core/http/route';

export const handler = httpRoute(async () => {
  const report = await checkHealth();
  return { status: report.status === 'ok' ? 200 : 503, body: report };
});
