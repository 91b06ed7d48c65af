/** GET /api/admin/queue-stats — per queue: visible, in flight, delayed, DLQ depth; and the throttle shedder. */
import { aiGateway } from '../../layers/core/ai/gateway';
import { httpRoute } from '../../layers/core/http/route';
import { queueStats } from '../../layers/core/operations/queue-stats';

export const handler = httpRoute(async () => ({ body: await queueStats(await aiGateway()) }));
