/**
 * The retention sweep (daily schedule, and POST /api/admin/cron/retention): deletes operational
 * records that have outlived their retention. Investigation data is never touched — organizations,
 * users, investigations, evidence, attachments, background documents, chunks, analyses (other than
 * failed ones nothing refers to), retrieval records, feedback, revisions, engagements, prompt template
 * versions —, nor payment events (the webhook's idempotency record) and milestones. The policy and its
 * configuration are in docs/operations.md.
 *
 * Deletes go in batches (each its own statement, so no long lock and no huge transaction) and stop at
 * the time budget; what is left is deleted by the next run, and the report says so (`complete: false`).
 */
import type { Kysely } from 'kysely';
import * as z from 'zod';
import { writeAudit } from '#core/audit/audit';
import { env, ENV } from '#core/config';
import type { Database } from '#core/db/schema';
import type { JobTrigger } from '#core/domain/vocabulary';
import { timeBudgetFor } from '#core/embeddings/job';
import { logger } from '#core/logger';
import { countEvent } from '#core/metrics';
import { recordJobRun } from './job-runs';
import { RETENTION_LOG_MARKER } from '#manifest/runtime-names';
import { jobRunIdShape, reportCount, runTiming, runTimingSchema } from './report';
import { ifUsed } from '#core/if-used';

export const RETENTION_JOB = 'retention-sweep';

/** The log line the "no retention run for 26 hours" alarm watches (SPEC Events): one per successful run. */
export { RETENTION_LOG_MARKER };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Records kept for a configurable number of days (0 keeps them for ever). */
const RETENTION_SETTINGS = {
  ai_calls: { env: ENV.retentionAiCallsDays, defaultDays: 365 },
  audit_log: { env: ENV.retentionAuditLogDays, defaultDays: 2555 },
  audit_failures: { env: ENV.retentionAuditFailuresDays, defaultDays: 90 },
  job_runs: { env: ENV.retentionJobRunsDays, defaultDays: 90 },
  failed_analyses: { env: ENV.retentionFailedAnalysesDays, defaultDays: 180 },
} as const;

type ConfigurableCategory = keyof typeof RETENTION_SETTINGS;

/**
 * Counters that only matter inside their own window, deleted once no window can still hold them:
 * rate-limit windows last at most a day (RATE_LIMITS allows up to 86400 s), quota reservations 60 s.
 */
export const TRANSIENT_RETENTION_MS = {
  rate_limit_counters: 2 * DAY_MS,
  ai_quota_reservations: HOUR_MS,
} as const;

export type RetentionCategory = ConfigurableCategory | keyof typeof TRANSIENT_RETENTION_MS;

/** The order a run sweeps in: cheap counters first, so a short time budget still clears them. */
export const RETENTION_CATEGORIES: readonly RetentionCategory[] = [
  'rate_limit_counters',
  'ai_quota_reservations',
  'job_runs',
  'audit_failures',
  'ai_calls',
  'audit_log',
  'failed_analyses',
];

/** Days to keep each configurable category; 0 = for ever. */
export type RetentionPolicy = Record<ConfigurableCategory, number>;

export const DEFAULT_RETENTION_POLICY: RetentionPolicy = Object.fromEntries(
  Object.entries(RETENTION_SETTINGS).map(([category, s]) => [category, s.defaultDays]),
) as RetentionPolicy;

const MAX_DAYS = 36_500;

/** The policy from RETENTION_*_DAYS over the defaults; a value that is not a whole number of days 0–36500 throws, naming it. */
export const retentionPolicyFromEnv = (read: (name: string) => string | undefined = env): RetentionPolicy => {
  const policy = { ...DEFAULT_RETENTION_POLICY };
  for (const [category, setting] of Object.entries(RETENTION_SETTINGS) as [
    ConfigurableCategory,
    (typeof RETENTION_SETTINGS)[ConfigurableCategory],
  ][]) {
    const raw = read(setting.env);
    if (raw === undefined) continue;
    const days = Number(raw.trim());
    if (raw.trim() === '' || !Number.isInteger(days) || days < 0 || days > MAX_DAYS) {
      throw new Error(`${setting.env} must be a whole number of days from 0 (keep for ever) to ${MAX_DAYS}, got '${raw}'`);
    }
    policy[category] = days;
  }
  return policy;
};

/** Pure: the cut-off per category (records older than it go), or null when the category is kept for ever. */
export const retentionCutoffs = (policy: RetentionPolicy, now: Date): Record<RetentionCategory, Date | null> => {
  const before = (ms: number) => new Date(now.getTime() - ms);
  return {
    ...(Object.fromEntries(
      Object.entries(policy).map(([category, days]) => [category, days === 0 ? null : before(days * DAY_MS)]),
    ) as Record<ConfigurableCategory, Date | null>),
    rate_limit_counters: before(TRANSIENT_RETENTION_MS.rate_limit_counters),
    ai_quota_reservations: before(TRANSIENT_RETENTION_MS.ai_quota_reservations),
  };
};

// ---- Deletes, one batch at a time --------------------------------------------------------------

type DeleteBatch = (db: Kysely<Database>, cutoff: Date, limit: number) => Promise<bigint>;

const deleted = (result: { numDeletedRows: bigint }) => result.numDeletedRows;

const DELETES: Record<RetentionCategory, DeleteBatch> = {
  rate_limit_counters: async (db, cutoff, limit) =>
    deleted(
      await db
        .deleteFrom('rate_limit_counters')
        .where((eb) =>
          eb(
            eb.refTuple('key', 'window_start'),
            'in',
            eb
              .selectFrom('rate_limit_counters')
              .select(['key', 'window_start'])
              .where('window_start', '<', cutoff)
              .limit(limit)
              .$asTuple('key', 'window_start'),
          ),
        )
        .executeTakeFirstOrThrow(),
    ),

  ai_quota_reservations: async (db, cutoff, limit) =>
    deleted(
      await db
        .deleteFrom('ai_quota_reservations')
        .where('id', 'in', (eb) => eb.selectFrom('ai_quota_reservations').select('id').where('reserved_at', '<', cutoff).limit(limit))
        .executeTakeFirstOrThrow(),
    ),

  // The newest run and the newest successful run of each job stay, whatever their age: jobs/status shows them.
  job_runs: async (db, cutoff, limit) =>
    deleted(
      await db
        .deleteFrom('job_runs')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('job_runs as old')
            .select('old.id')
            .where('old.started_at', '<', cutoff)
            .where(({ exists, selectFrom }) =>
              exists(
                selectFrom('job_runs as newer')
                  .select('newer.id')
                  .whereRef('newer.job', '=', 'old.job')
                  .whereRef('newer.started_at', '>', 'old.started_at'),
              ),
            )
            .where(({ or, eb: e, exists, selectFrom }) =>
              or([
                e('old.status', '<>', 'succeeded'),
                exists(
                  selectFrom('job_runs as newer')
                    .select('newer.id')
                    .whereRef('newer.job', '=', 'old.job')
                    .where('newer.status', '=', 'succeeded')
                    .whereRef('newer.started_at', '>', 'old.started_at'),
                ),
              ]),
            )
            .limit(limit),
        )
        .executeTakeFirstOrThrow(),
    ),

  audit_failures: async (db, cutoff, limit) =>
    deleted(
      await db
        .deleteFrom('audit_failures')
        .where('id', 'in', (eb) => eb.selectFrom('audit_failures').select('id').where('created_at', '<', cutoff).limit(limit))
        .executeTakeFirstOrThrow(),
    ),

  ai_calls: async (db, cutoff, limit) =>
    deleted(
      await db
        .deleteFrom('ai_calls')
        .where('id', 'in', (eb) => eb.selectFrom('ai_calls').select('id').where('created_at', '<', cutoff).limit(limit))
        .executeTakeFirstOrThrow(),
    ),

  audit_log: async (db, cutoff, limit) =>
    deleted(
      await db
        .deleteFrom('audit_log')
        .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('created_at', '<', cutoff).limit(limit))
        .executeTakeFirstOrThrow(),
    ),

  // A failed analysis holds no result, only its error message; it goes only when nothing refers to it
  // (no feedback, revision or engagement, and no regeneration made from it). Its retrieval records go
  // with it (cascade); its ledger rows stay, with analysis_id cleared.
  failed_analyses: async (db, cutoff, limit) =>
    deleted(
      await db
        .deleteFrom('analyses')
        .where('generation_status', '=', 'failed')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('analyses as a')
            .select('a.id')
            .where('a.generation_status', '=', 'failed')
            .where('a.updated_at', '<', cutoff)
            .where(({ not, exists, selectFrom }) =>
              not(exists(selectFrom('feedback').select('feedback.id').whereRef('feedback.analysis_id', '=', 'a.id'))),
            )
            .where(({ not, exists, selectFrom }) =>
              not(exists(selectFrom('analysis_revisions as r').select('r.id').whereRef('r.analysis_id', '=', 'a.id'))),
            )
            .where(({ not, exists, selectFrom }) =>
              not(exists(selectFrom('analysis_engagements as e').select('e.analysis_id').whereRef('e.analysis_id', '=', 'a.id'))),
            )
            .where(({ not, exists, selectFrom }) =>
              not(exists(selectFrom('analyses as child').select('child.id').whereRef('child.regenerated_from', '=', 'a.id'))),
            )
            .limit(limit),
        )
        .executeTakeFirstOrThrow(),
    ),
};

// ---- The sweep ---------------------------------------------------------------------------------

const count = reportCount;

const categoryRunSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    deleted: count.describe('rows deleted by this run'),
    cutoff: z.iso.datetime().nullable().describe('rows older than this were due; null when the category is kept for ever'),
    complete: z.boolean().describe('false when the time budget ended before every due row was deleted (the next run goes on)'),
  }),
);

const retentionReportSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    // an object with a property per category (not a record), so the document names each one
    categories: z.object(
      Object.fromEntries(RETENTION_CATEGORIES.map((category) => [category, categoryRunSchema])) as Record<
        RetentionCategory,
        typeof categoryRunSchema
      >,
    ),
    policy: z.record(z.string(), count).describe('days kept per configurable category (0 = for ever)'),
    deleted_total: count,
    complete: z.boolean().describe('every category swept to its cut-off'),
    ...runTimingSchema,
  }),
);

export type RetentionReport = z.infer<typeof retentionReportSchema>;

export const retentionRunSchema = /* @__PURE__ */ ifUsed(() => retentionReportSchema.extend(jobRunIdShape));
export type RetentionRun = z.infer<typeof retentionRunSchema>;

export interface RetentionOptions {
  policy?: RetentionPolicy;
  /** the reference time for the cut-offs (tests move it) */
  now?: Date;
  batchSize?: number;
  timeBudgetMs?: number;
}

const RETENTION_BATCH_SIZE = 5_000;

export const sweepRetention = async (db: Kysely<Database>, options: RetentionOptions = {}): Promise<RetentionReport> => {
  const started = new Date();
  const policy = options.policy ?? retentionPolicyFromEnv();
  const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
  const budgetMs = options.timeBudgetMs ?? Number.POSITIVE_INFINITY;
  const cutoffs = retentionCutoffs(policy, options.now ?? started);
  const outOfTime = () => Date.now() - started.getTime() >= budgetMs;

  const categories = {} as RetentionReport['categories'];
  for (const category of RETENTION_CATEGORIES) {
    const cutoff = cutoffs[category];
    let total = 0;
    let complete = true;
    if (cutoff) {
      for (;;) {
        if (outOfTime()) {
          complete = false;
          break;
        }
        const n = Number(await DELETES[category](db, cutoff, batchSize));
        total += n;
        if (n < batchSize) break;
      }
    }
    categories[category] = { deleted: total, cutoff: cutoff?.toISOString() ?? null, complete };
  }
  const finished = new Date();
  return {
    categories,
    policy,
    deleted_total: Object.values(categories).reduce((sum, c) => sum + c.deleted, 0),
    complete: Object.values(categories).every((c) => c.complete),
    ...runTiming(started, finished),
  };
};

export const RETENTION_AUDIT_ACTION = 'operations.retention.sweep';

/**
 * One recorded run (job_runs) of the sweep. A successful run logs RetentionCronLastRun with its report
 * and writes an audit row with what it deleted (the sweep prunes the audit log itself, so the pruning
 * leaves its own trace).
 */
export const runRetentionSweep = async (
  db: Kysely<Database>,
  { trigger, remainingMs, ...options }: RetentionOptions & { trigger: JobTrigger; remainingMs?: number | undefined },
): Promise<RetentionRun> => {
  const { report, jobRunId } = await recordJobRun(db, { job: RETENTION_JOB, trigger }, () =>
    sweepRetention(db, { timeBudgetMs: timeBudgetFor(trigger, remainingMs), ...options }),
  );
  logger.info(RETENTION_LOG_MARKER, { jobRunId, trigger, report });
  countEvent('retentionRuns');
  await writeAudit(db, {
    action: RETENTION_AUDIT_ACTION,
    outcome: 'success',
    target: `job_run:${jobRunId}`,
    detail: {
      trigger,
      deleted: Object.fromEntries(Object.entries(report.categories).map(([c, r]) => [c, r.deleted])),
      complete: report.complete,
    },
  });
  return { ...report, job_run_id: jobRunId };
};
