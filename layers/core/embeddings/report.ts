/**
 * The embedding sweeper's report: what the cron route answers, what job_runs.report stores, and what
 * the scheduled run returns. Wire names are snake_case (the API's convention) except
 * `pendingOver24hAfterSweep`, whose name the spec fixes.
 */
import * as z from 'zod';
import { jobRunIdShape, reportCount, runTimingSchema } from '#core/operations/report';
import { ifUsed } from '#core/if-used';

const STOPPED_BY = ['done', 'batch_limit', 'time_budget', 'ai_unavailable'] as const;
export type StoppedBy = (typeof STOPPED_BY)[number];

const count = reportCount;

export const sweepReportSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    embedded: count.describe('sources embedded by this sweep'),
    chunks: count.describe('chunks stored by this sweep (with their vectors)'),
    failed: count.describe('sources whose attempt failed in this sweep (status error, error_message set)'),
    gave_up: count.describe('of those, sources that reached the attempt cap in this sweep and will not be retried'),
    skipped: count.describe('sources claimed but left as they were: text not extracted yet, changed during the sweep, or out of time'),
    removed: count.describe('status rows whose source no longer exists, deleted'),
    remaining: count.describe('sources still to embed after the sweep (pending, or error below the attempt cap)'),
    errors_given_up: count.describe('all sources in error at the attempt cap (need attention; retried only when re-queued)'),
    pendingOver24hAfterSweep: count.describe(
      'sources not embedded whose row is older than 24 hours, counted after the sweep; 0 means none (the alarm fires above 0)',
    ),
    max_attempts: z.number().int().positive(),
    stopped_by: z.enum(STOPPED_BY).describe('why the sweep ended: nothing left, batch limit, time budget, or the AI service unavailable'),
    ...runTimingSchema,
  }),
);

export type SweepReport = z.infer<typeof sweepReportSchema>;

/** What the cron route and a scheduled run return: the report and the job_runs row that holds it. */
export const sweepRunSchema = /* @__PURE__ */ ifUsed(() => sweepReportSchema.extend(jobRunIdShape));
export type SweepRun = z.infer<typeof sweepRunSchema>;
