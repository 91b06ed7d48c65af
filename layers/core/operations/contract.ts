/** The contracts of the operations routes: health, queue and job status, the retention run (../contract.ts). */
import * as z from 'zod';
import { defineRoute } from '#core/contract';
import { jobsStatusSchema } from './jobs-status';
import { queueStatsSchema } from './queue-stats';
import { retentionRunSchema } from './retention';

const check = z.object({ status: z.enum(['ok', 'failed']), latency_ms: z.number().int(), error: z.string().optional() });

export const healthRoute = defineRoute({
  route: 'GET /api/health',
  response: z.object({
    status: z.enum(['ok', 'unavailable']),
    checks: z.object({ database: check, generation_queue: check, quality_queue: check, storage: check }),
    time: z.iso.datetime(),
  }),
});

export const adminQueueStatsRoute = defineRoute({ route: 'GET /api/admin/queue-stats', response: queueStatsSchema });

export const adminJobsStatusRoute = defineRoute({ route: 'GET /api/admin/jobs/status', response: jobsStatusSchema });

export const retentionSweepRoute = defineRoute({ route: 'POST /api/admin/cron/retention', response: retentionRunSchema });
