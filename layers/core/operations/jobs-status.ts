/**
 * GET /api/admin/jobs/status: what the background machinery is doing — the newest run of each sweep
 * with its report, the queue depths, and the analyses in flight (how many per status, and how long the
 * oldest has been in it).
 */
import { sql, type Kysely } from 'kysely';
import { functionById } from '#manifest';
import type { Database } from '#core/db/schema';
import { IN_FLIGHT_STATUSES } from '#core/domain/generation-status';
import { EMBEDDING_SWEEPER_JOB } from '#core/embeddings/job';
import type { JobsStatus } from './contract';
import { jobStatuses } from './job-runs';
import { queueDepths, type DepthOptions } from './queue-stats';
import { RETENTION_JOB } from './retention';

/** The jobs that record their runs in job_runs (the analysis watchdog does not: its effect is on the analyses). */
const SWEEP_JOBS = [EMBEDDING_SWEEPER_JOB, RETENTION_JOB] as const;

type InFlightStatus = (typeof IN_FLIGHT_STATUSES)[number];

type InFlight = JobsStatus['analyses_in_flight'][InFlightStatus];

const scheduleOf = (functionId: string): string | null =>
  functionById(functionId).triggers.flatMap((t) => (t.kind === 'schedule' ? [t.expression] : []))[0] ?? null;

/**
 * One grouped count over the partial index analyses_in_flight_idx. Ages are computed by the database
 * against its own clock, as updated_at was written by it.
 */
export const analysesInFlight = async (db: Kysely<Database>): Promise<Record<InFlightStatus, InFlight>> => {
  const rows = await db
    .selectFrom('analyses')
    .select([
      'generation_status',
      sql<number>`count(*)::int`.as('n'),
      sql<number>`floor(extract(epoch from (now() - min(updated_at))))::int`.as('oldest'),
    ])
    .where('generation_status', 'in', IN_FLIGHT_STATUSES)
    .groupBy('generation_status')
    .execute();
  return Object.fromEntries(
    IN_FLIGHT_STATUSES.map((status) => {
      const row = rows.find((r) => r.generation_status === status);
      return [status, { count: row?.n ?? 0, oldest_age_seconds: row ? Math.max(0, row.oldest) : null }];
    }),
  ) as Record<InFlightStatus, InFlight>;
};

export const jobsStatus = async (db: Kysely<Database>, options: DepthOptions = {}): Promise<JobsStatus> => {
  const [jobs, depths, inFlight] = await Promise.all([jobStatuses(db, SWEEP_JOBS), queueDepths(options), analysesInFlight(db)]);
  return {
    jobs: jobs.map((j) => ({ ...j, schedule: scheduleOf(j.job) })),
    queues: depths,
    analyses_in_flight: inFlight,
    time: new Date().toISOString(),
  };
};
