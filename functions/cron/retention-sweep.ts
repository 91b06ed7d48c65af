/**
 * The retention sweep on both of its triggers (daily schedule, POST /api/admin/cron/retention):
 * deletes what has outlived its retention, records the run in job_runs and logs RetentionCronLastRun
 * (layers/core/operations/retention.ts; policy in docs/operations.md).
 */
import { database } from '../../layers/core/db/connection';
import { retentionSweepRoute } from '../../layers/core/operations/contract';
import { runRetentionSweep } from '../../layers/core/operations/retention';
import { scheduledJobHandler } from '../../layers/core/http/scheduled-job';

export const handler = scheduledJobHandler(retentionSweepRoute, async (trigger, context) =>
  runRetentionSweep(await database(), { trigger, remainingMs: context?.getRemainingTimeInMillis?.() }));
