/** GET /api/admin/queue-stats — per queue: visible, in flight, delayed, DLQ depth; the throttle shedder; the embedding work. */
import { aiGateway } from '#core/ai/gateway';
import { database } from '#core/db/connection';
import { route } from '#core/http/route';
import { adminQueueStatsRoute } from '#core/operations/contract';
import { queueStats } from '#core/operations/queue-stats';

export const handler = route(adminQueueStatsRoute, async () => ({ body: await queueStats(await database(), await aiGateway()) }));
