/** The contracts of the operations routes: health, queue and job status, the retention run (../contract.ts). */
import * as z from 'zod';
import { defineRoute } from '#core/contract';
import { IN_FLIGHT_STATUSES } from '#core/domain/generation-status';
import { jobStatusSchema } from './job-runs';
import { queueDepthsSchema, queueStatsSchema } from './queue-stats';
import { retentionRunSchema } from './retention';
import { ifUsed } from '#core/if-used';

const check = /* @__PURE__ */ ifUsed(() =>
  z.object({ status: z.enum(['ok', 'failed']), latency_ms: z.number().int(), error: z.string().optional() }),
);

export const healthRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/health',
    response: z.object({
      status: z.enum(['ok', 'unavailable']),
      checks: z.object({ database: check, generation_queue: check, quality_queue: check, storage: check }),
      time: z.iso.datetime(),
    }),
  }),
);

export const adminQueueStatsRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({ route: 'GET /api/admin/queue-stats', response: queueStatsSchema }),
);

const inFlightSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    count: z.number().int().nonnegative(),
    oldest_age_seconds: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe('seconds since the longest-waiting analysis entered this status; null when none'),
  }),
);

/** GET /api/admin/jobs/status (./jobs-status.ts), here rather than beside it: it reads the manifest, which no other route of this contract needs. */
export const jobsStatusSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    jobs: z.array(jobStatusSchema.extend({ schedule: z.string().nullable().describe('its EventBridge schedule expression') })),
    queues: queueDepthsSchema,
    analyses_in_flight: z.object(
      Object.fromEntries(IN_FLIGHT_STATUSES.map((s) => [s, inFlightSchema])) as Record<
        (typeof IN_FLIGHT_STATUSES)[number],
        typeof inFlightSchema
      >,
    ),
    time: z.iso.datetime(),
  }),
);

export type JobsStatus = z.infer<typeof jobsStatusSchema>;

export const adminJobsStatusRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({ route: 'GET /api/admin/jobs/status', response: jobsStatusSchema }),
);

export const retentionSweepRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({ route: 'POST /api/admin/cron/retention', response: retentionRunSchema }),
);
