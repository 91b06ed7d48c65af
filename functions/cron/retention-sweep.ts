/**
 * The retention sweep on both of its triggers (daily schedule, POST /api/admin/cron/retention):
 * deletes what has outlived its retention, records the run in job_runs and logs RetentionCronLastRun
 * (layers/core/operations/retention.ts; policy in docs/operations.md).
 */
import { database } from '#core/db/connection';
import { retentionSweepRoute } from '#core/operations/contract';
import { runRetentionSweep } from '#core/operations/retention';
import { scheduledJobHandler } from '#core/http/scheduled-job';

export const handler = scheduledJobHandler(retentionSweepRoute, async (trigger, context) =>
  runRetentionSweep(await database(), { trigger, remainingMs: context?.getRemainingTimeInMillis?.() }),
);
