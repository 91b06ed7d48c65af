/** Pieces every sweep report shares (the embedding sweeper's and the retention sweep's). Pure. */
import * as z from 'zod';
import { ifUsed } from '#core/if-used';

/** A non-negative count in a sweep report. */
export const reportCount = /* @__PURE__ */ ifUsed(() => z.number().int().nonnegative());

/** The timing every sweep report ends with. */
export const runTimingSchema = { started_at: z.iso.datetime(), finished_at: z.iso.datetime(), duration_ms: reportCount };

export const runTiming = (started: Date, finished: Date) => ({
  started_at: started.toISOString(),
  finished_at: finished.toISOString(),
  duration_ms: Math.max(0, finished.getTime() - started.getTime()),
});

/** What a cron route and a scheduled run add to the report: the job_runs row that holds it. */
export const jobRunIdShape = { job_run_id: z.uuid() };
