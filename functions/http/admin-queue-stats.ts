/** GET /api/admin/queue-stats — per queue: visible, in flight, delayed, DLQ depth; and the throttle shedder. */
import { aiGateway } from '../../layers/core/ai/gateway';
import { route } from '../../layers/core/http/route';
import { adminQueueStatsRoute } from '../../layers/core/operations/contract';
import { queueStats } from '../../layers/core/operations/queue-stats';

export const handler = route(adminQueueStatsRoute, async () => ({ body: await queueStats(await aiGateway()) }));
