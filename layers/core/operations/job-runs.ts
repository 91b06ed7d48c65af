/**
 * Background jobs as job_runs rows: one row per run (running → succeeded with its report, or failed with
 * the error), for every sweep, and the newest run of each job for GET /api/admin/jobs/status.
 */
import { sql, type Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '#core/db/schema';
import { isoTime, jsonColumn } from '#core/db/values';
import type { JobTrigger } from '#core/domain/vocabulary';
import { errorMessageOf } from '#core/embeddings/failures';
import { logger } from '#core/logger';
import { ifUsed } from '#core/if-used';

export interface JobRunResult<R> {
  report: R;
  jobRunId: string;
}

/**
 * Runs `work` as one recorded run of `job`. A run that throws is recorded as failed with its message
 * (best effort: the original error is what the caller sees) and the error is rethrown, so a scheduled
 * run fails visibly and EventBridge Scheduler retries it.
 */
export const recordJobRun = async <R>(
  db: Kysely<Database>,
  { job, trigger }: { job: string; trigger: JobTrigger },
  work: () => Promise<R>,
): Promise<JobRunResult<R>> => {
  const run = await db
    .insertInto('job_runs')
    .values({ job, trigger, status: 'running', report: null, error_message: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  let report: R;
  try {
    report = await work();
  } catch (error) {
    logger.error(`${job} failed`, { error: error as Error, jobRunId: run.id, trigger });
    await db
      .updateTable('job_runs')
      .set({ status: 'failed', error_message: errorMessageOf(error), finished_at: sql`now()` })
      .where('id', '=', run.id)
      .execute()
      .catch((e: unknown) => logger.error(`could not record the failed ${job} run`, { error: e as Error, jobRunId: run.id }));
    throw error;
  }
  await db
    .updateTable('job_runs')
    .set({ status: 'succeeded', report: JSON.stringify(report), finished_at: sql`now()` })
    .where('id', '=', run.id)
    .execute();
  return { report, jobRunId: run.id };
};

export const jobStatusSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    job: z.string(),
    last_run: z
      .object({
        job_run_id: z.uuid(),
        trigger: z.enum(['schedule', 'http']),
        status: z.enum(['running', 'succeeded', 'failed']),
        started_at: z.iso.datetime(),
        finished_at: z.iso.datetime().nullable(),
        report: z.unknown().describe("the job's report (succeeded runs); null otherwise"),
        error_message: z.string().nullable(),
      })
      .nullable()
      .describe('the newest run, whatever its outcome; null when the job never ran'),
    last_succeeded_at: z.iso
      .datetime()
      .nullable()
      .describe('when the newest successful run finished (what the "no run for 26 hours" alarm watches)'),
  }),
);

export type JobStatus = z.infer<typeof jobStatusSchema>;

/** The newest run and the newest success of each named job (two index reads per job on job_runs_job_idx). */
export const jobStatuses = async (db: Kysely<Database>, jobs: readonly string[]): Promise<JobStatus[]> =>
  Promise.all(
    jobs.map(async (job): Promise<JobStatus> => {
      const [last, succeeded] = await Promise.all([
        db.selectFrom('job_runs').selectAll().where('job', '=', job).orderBy('started_at', 'desc').limit(1).executeTakeFirst(),
        db
          .selectFrom('job_runs')
          .select('finished_at')
          .where('job', '=', job)
          .where('status', '=', 'succeeded')
          .orderBy('started_at', 'desc')
          .limit(1)
          .executeTakeFirst(),
      ]);
      return {
        job,
        last_run: last
          ? {
              job_run_id: last.id,
              trigger: last.trigger,
              status: last.status,
              started_at: isoTime(last.started_at)!,
              finished_at: isoTime(last.finished_at),
              report: jsonColumn(last.report),
              error_message: last.error_message,
            }
          : null,
        last_succeeded_at: isoTime(succeeded?.finished_at),
      };
    }),
  );
