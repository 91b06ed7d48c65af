/**
 * One run of the embedding sweeper as a job: a job_runs row (running → succeeded with the report, or
 * failed with the error), the sweep, the PendingOver24hAfterSweep metric, a log line. What both the
 * cron route and the schedule call.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import type { JobTrigger } from '#core/domain/vocabulary';
import { logger } from '#core/logger';
import { publishSweepMetrics } from './metrics';
import type { SweepReport, SweepRun } from './report';
import { recordJobRun } from '#core/operations/job-runs';
import { sweepEmbeddings, SWEEP_DEFAULTS, type SweepOptions } from './sweeper';

export const EMBEDDING_SWEEPER_JOB = 'embedding-sweeper';

/** operations/scheduled-job.ts takes it from here */
export type { JobTrigger };

export interface RunOptions extends SweepOptions {
  trigger: JobTrigger;
  /** where the metric goes (default: EMF through Powertools Metrics) */
  publish?: (report: SweepReport) => void;
}

/** Time budget for a run: what the invocation has left minus a margin, capped per trigger. */
export const SWEEP_BUDGET = {
  /** scheduled runs: up to SWEEP_DEFAULTS.timeBudgetMs of the 300 s Lambda */
  schedule: { capMs: SWEEP_DEFAULTS.timeBudgetMs, marginMs: 30_000 },
  /** the cron route answers through API Gateway, whose integration timeout is 30 s */
  http: { capMs: 20_000, marginMs: 5_000 },
} as const;

export const timeBudgetFor = (trigger: JobTrigger, remainingMs: number | undefined): number => {
  const { capMs, marginMs } = SWEEP_BUDGET[trigger];
  return Math.max(0, Math.min(capMs, (remainingMs ?? Number.POSITIVE_INFINITY) - marginMs));
};

export const runEmbeddingSweep = async (
  db: Kysely<Database>,
  { trigger, publish = publishSweepMetrics, ...options }: RunOptions,
): Promise<SweepRun> => {
  const { report, jobRunId } = await recordJobRun(db, { job: EMBEDDING_SWEEPER_JOB, trigger }, () => sweepEmbeddings(db, options));
  publish(report);
  logger.info('embedding sweep finished', { jobRunId, trigger, report });
  return { ...report, job_run_id: jobRunId };
};
