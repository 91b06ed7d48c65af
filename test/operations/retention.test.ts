/**
 * The retention sweep against the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): rows
 * past their cut-off go, rows inside it stay, investigation records are never touched, the newest runs
 * of each job survive, failed analyses something refers to survive, batches and the time budget, the
 * job_runs row and the RetentionCronLastRun log line; and the policy's configuration.
 */
import { randomUUID } from 'node:crypto';
import { logger } from '#core/logger';
import {
  DEFAULT_RETENTION_POLICY,
  RETENTION_AUDIT_ACTION,
  RETENTION_CATEGORIES,
  RETENTION_JOB,
  RETENTION_LOG_MARKER,
  retentionCutoffs,
  retentionPolicyFromEnv,
  retentionRunSchema,
  runRetentionSweep,
  sweepRetention,
  TRANSIENT_RETENTION_MS,
  type RetentionPolicy,
} from '#core/operations/retention';
import { useTestDatabase } from '../support/db';
import { setEnv } from '../support/config-env';

const db = useTestDatabase();

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = new Date();
const ago = (ms: number) => new Date(NOW.getTime() - ms);
/** just past a cut-off of `ms`, and just inside it */
const due = (ms: number) => ago(ms + HOUR);
const fresh = (ms: number) => ago(ms - HOUR);

const POLICY: RetentionPolicy = { ai_calls: 30, audit_log: 60, audit_failures: 10, job_runs: 20, failed_analyses: 40 };

let orgId: string;
let investigationId: string;
let userId: string;

beforeAll(async () => {
  orgId = (await db.insertInto('organizations').values({ name: 'Retention Org' }).returning('id').executeTakeFirstOrThrow()).id;
  investigationId = (
    await db.insertInto('investigations').values({ organization_id: orgId, title: 'Old case' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  userId = (
    await db
      .insertInto('users')
      .values({
        organization_id: orgId,
        idp_subject: `sub-${randomUUID()}`,
        email: `${randomUUID()}@example.test`,
        display_name: 'Keeper',
        role: 'investigator',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

const clear = async () => {
  for (const table of [
    'ai_calls',
    'audit_log',
    'audit_failures',
    'job_runs',
    'rate_limit_counters',
    'ai_quota_reservations',
    'analyses',
  ] as const) {
    await db.deleteFrom(table).execute();
  }
};

const analysis = (status: 'failed' | 'complete', updatedAt: Date, extra: Partial<{ regenerated_from: string }> = {}) =>
  db
    .insertInto('analyses')
    .values({
      investigation_id: investigationId,
      analysis_type: 'summary',
      generation_status: status,
      created_at: updatedAt,
      updated_at: updatedAt,
      ...extra,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

const ledger = (at: Date) =>
  db
    .insertInto('ai_calls')
    .values({ purpose: 'analysis', region: 'us-east-1', model_id: 'm', outcome: 'ok', created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);
const auditRow = (at: Date) =>
  db
    .insertInto('audit_log')
    .values({ action: 'admin.settings.update', outcome: 'success', created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);
const auditFailure = (at: Date) =>
  db
    .insertInto('audit_failures')
    .values({ action: 'auth.login_failed', error_message: 'db down', created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);
const jobRun = (job: string, at: Date, status: 'succeeded' | 'failed' | 'running' = 'succeeded') =>
  db
    .insertInto('job_runs')
    .values({ job, trigger: 'schedule', status, report: null, error_message: null, started_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);
const counter = (key: string, at: Date) =>
  db
    .insertInto('rate_limit_counters')
    .values({ key, window_start: at, count: 3 })
    .execute()
    .then(() => key);
const reservation = (at: Date) =>
  db
    .insertInto('ai_quota_reservations')
    .values({ region: 'us-east-1', reserved_at: at })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

const idsOf = async (table: 'ai_calls' | 'audit_log' | 'audit_failures' | 'job_runs' | 'ai_quota_reservations' | 'analyses') =>
  (await db.selectFrom(table).select('id').execute()).map((r) => String(r.id)).sort();
const sorted = (ids: string[]) => ids.map(String).sort();

describe('sweepRetention', () => {
  beforeEach(clear);

  test('deletes exactly the rows past their cut-off, counts them, and leaves investigation records alone', async () => {
    const kept: Record<string, string[]> = {};
    const gone: Record<string, string[]> = {};
    const seed = async (name: string, make: (at: Date) => Promise<string>, ms: number) => {
      gone[name] = [await make(due(ms)), await make(due(ms * 3))];
      kept[name] = [await make(fresh(ms)), await make(NOW)];
    };
    await seed('ai_calls', ledger, POLICY.ai_calls * DAY);
    await seed('audit_log', auditRow, POLICY.audit_log * DAY);
    await seed('audit_failures', auditFailure, POLICY.audit_failures * DAY);
    await seed('ai_quota_reservations', reservation, TRANSIENT_RETENTION_MS.ai_quota_reservations);
    let n = 0;
    await seed('rate_limit_counters', (at) => counter(`user:${n++}`, at), TRANSIENT_RETENTION_MS.rate_limit_counters);

    // job runs: the old ones go, except the newest run and the newest success of each job
    const jobDays = POLICY.job_runs * DAY;
    gone.job_runs = [await jobRun('embedding-sweeper', due(jobDays * 2)), await jobRun('embedding-sweeper', due(jobDays), 'failed')];
    kept.job_runs = [
      await jobRun('embedding-sweeper', fresh(jobDays)),
      // a job whose only runs are old: its newest success and its newest (failed) run stay
      await jobRun('old-job', due(jobDays * 2)),
      await jobRun('old-job', due(jobDays), 'failed'),
    ];
    gone.job_runs.push(await jobRun('old-job', due(jobDays * 3)));

    // failed analyses: only old ones nothing refers to
    const failedMs = POLICY.failed_analyses * DAY;
    const lonely = await analysis('failed', due(failedMs));
    await db
      .insertInto('retrieval_records')
      .values({ analysis_id: lonely, rank: 1, source_type: 'content', similarity: 0.5, included: true })
      .execute();
    const ledgerOfLonely = (
      await db
        .insertInto('ai_calls')
        .values({ purpose: 'analysis', region: 'us-east-1', model_id: 'm', outcome: 'error', analysis_id: lonely })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    kept.ai_calls!.push(ledgerOfLonely);
    const withFeedback = await analysis('failed', due(failedMs));
    await db
      .insertInto('feedback')
      .values({ analysis_id: withFeedback, user_id: userId, action: 'unsure', status: 'needs_revision' })
      .execute();
    const withRevision = await analysis('failed', due(failedMs));
    await db
      .insertInto('analysis_revisions')
      .values({ analysis_id: withRevision, author_id: userId, content: JSON.stringify({ summary: 'x' }) })
      .execute();
    const withEngagement = await analysis('failed', due(failedMs));
    await db.insertInto('analysis_engagements').values({ analysis_id: withEngagement, user_id: userId, detail_reviewed_at: NOW }).execute();
    const regeneratedFrom = await analysis('failed', due(failedMs));
    const child = await analysis('complete', due(failedMs), { regenerated_from: regeneratedFrom });
    gone.analyses = [lonely];
    kept.analyses = [
      withFeedback,
      withRevision,
      withEngagement,
      regeneratedFrom,
      child,
      await analysis('failed', fresh(failedMs)),
      await analysis('complete', due(failedMs * 2)),
    ];

    const evidenceBefore = await db.selectFrom('investigations').select('id').execute();
    const report = await sweepRetention(db, { policy: POLICY, now: NOW });

    for (const table of ['ai_calls', 'audit_log', 'audit_failures', 'ai_quota_reservations', 'job_runs', 'analyses'] as const) {
      expect({ table, ids: await idsOf(table) }).toEqual({ table, ids: sorted(kept[table]!) });
    }
    expect((await db.selectFrom('rate_limit_counters').select('key').execute()).map((r) => r.key).sort()).toEqual(
      sorted(kept.rate_limit_counters!),
    );
    expect(report.categories).toEqual({
      rate_limit_counters: { deleted: 2, cutoff: ago(TRANSIENT_RETENTION_MS.rate_limit_counters).toISOString(), complete: true },
      ai_quota_reservations: { deleted: 2, cutoff: ago(TRANSIENT_RETENTION_MS.ai_quota_reservations).toISOString(), complete: true },
      job_runs: { deleted: 3, cutoff: ago(jobDays).toISOString(), complete: true },
      audit_failures: { deleted: 2, cutoff: ago(POLICY.audit_failures * DAY).toISOString(), complete: true },
      ai_calls: { deleted: 2, cutoff: ago(POLICY.ai_calls * DAY).toISOString(), complete: true },
      audit_log: { deleted: 2, cutoff: ago(POLICY.audit_log * DAY).toISOString(), complete: true },
      failed_analyses: { deleted: 1, cutoff: ago(failedMs).toISOString(), complete: true },
    });
    expect(report).toMatchObject({ deleted_total: 14, complete: true, policy: POLICY });
    // the failed analysis's retrieval records went with it; its ledger row stayed, unlinked
    expect(await db.selectFrom('retrieval_records').select('rank').where('analysis_id', '=', lonely).execute()).toEqual([]);
    expect(
      (await db.selectFrom('ai_calls').select('analysis_id').where('id', '=', ledgerOfLonely).executeTakeFirstOrThrow()).analysis_id,
    ).toBeNull();
    expect(await db.selectFrom('investigations').select('id').execute()).toEqual(evidenceBefore);
    expect(await db.selectFrom('feedback').select('analysis_id').execute()).toEqual([{ analysis_id: withFeedback }]);
  });

  test('a category set to 0 days is kept for ever', async () => {
    const old = [await ledger(due(1000 * DAY)), await auditRow(due(1000 * DAY))];
    const report = await sweepRetention(db, { policy: { ...POLICY, ai_calls: 0, audit_log: 0 }, now: NOW });
    expect([...(await idsOf('ai_calls')), ...(await idsOf('audit_log'))].sort()).toEqual(sorted(old));
    expect(report.categories.ai_calls).toEqual({ deleted: 0, cutoff: null, complete: true });
    expect(report.categories.audit_log).toEqual({ deleted: 0, cutoff: null, complete: true });
  });

  test('deletes in batches until nothing is due', async () => {
    for (let i = 0; i < 7; i++) await auditRow(due(POLICY.audit_log * DAY + i * DAY));
    const keep = await auditRow(NOW);
    const report = await sweepRetention(db, { policy: POLICY, now: NOW, batchSize: 2 });
    expect(report.categories.audit_log).toMatchObject({ deleted: 7, complete: true });
    expect(await idsOf('audit_log')).toEqual([String(keep)]);
  });

  test('an exhausted time budget deletes nothing more and says the run is incomplete', async () => {
    const old = await auditRow(due(POLICY.audit_log * DAY));
    const report = await sweepRetention(db, { policy: POLICY, now: NOW, timeBudgetMs: 0 });
    expect(report.complete).toBe(false);
    expect(Object.values(report.categories).every((c) => !c.complete && c.deleted === 0)).toBe(true);
    expect(await idsOf('audit_log')).toEqual([String(old)]);
  });
});

describe('runRetentionSweep', () => {
  beforeEach(clear);

  test('records a succeeded job_runs row holding the report, logs RetentionCronLastRun with it, and audits what it deleted', async () => {
    await auditFailure(due(POLICY.audit_failures * DAY));
    const info = jest.spyOn(logger, 'info');
    const run = await runRetentionSweep(db, { trigger: 'schedule', policy: POLICY, now: NOW });
    expect(retentionRunSchema.parse(run)).toEqual(run);
    const { job_run_id, ...report } = run;
    const row = await db.selectFrom('job_runs').selectAll().where('id', '=', job_run_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ job: RETENTION_JOB, trigger: 'schedule', status: 'succeeded', error_message: null });
    expect(row.report).toEqual(report);
    expect(report.categories.audit_failures.deleted).toBe(1);
    expect(info).toHaveBeenCalledWith(RETENTION_LOG_MARKER, { jobRunId: job_run_id, trigger: 'schedule', report });
    info.mockRestore();
    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', RETENTION_AUDIT_ACTION).execute();
    expect(audit).toEqual([
      expect.objectContaining({
        outcome: 'success',
        actor_user_id: null,
        target: `job_run:${job_run_id}`,
        detail: {
          trigger: 'schedule',
          complete: true,
          deleted: Object.fromEntries(RETENTION_CATEGORIES.map((c) => [c, c === 'audit_failures' ? 1 : 0])),
        },
      }),
    ]);
  });

  test('a misconfigured policy fails the run: recorded as failed, nothing deleted, no RetentionCronLastRun', async () => {
    const old = await auditRow(due(DEFAULT_RETENTION_POLICY.audit_log * DAY));
    setEnv({ RETENTION_AUDIT_LOG_DAYS: 'forever' });
    const info = jest.spyOn(logger, 'info');
    try {
      await expect(runRetentionSweep(db, { trigger: 'http' })).rejects.toThrow(/RETENTION_AUDIT_LOG_DAYS/);
    } finally {
      setEnv({ RETENTION_AUDIT_LOG_DAYS: undefined });
    }
    const row = await db.selectFrom('job_runs').selectAll().where('job', '=', RETENTION_JOB).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', report: null });
    expect(row.error_message).toMatch(/RETENTION_AUDIT_LOG_DAYS must be a whole number/);
    expect(await idsOf('audit_log')).toEqual([String(old)]);
    expect(info.mock.calls.some(([message]) => message === RETENTION_LOG_MARKER)).toBe(false);
    info.mockRestore();
  });
});

describe('the policy', () => {
  test('defaults, overridden per category from RETENTION_*_DAYS', () => {
    expect(retentionPolicyFromEnv(() => undefined)).toEqual(DEFAULT_RETENTION_POLICY);
    const vars: Record<string, string> = { RETENTION_AI_CALLS_DAYS: '7', RETENTION_AUDIT_LOG_DAYS: '0' };
    expect(retentionPolicyFromEnv((name) => vars[name])).toEqual({ ...DEFAULT_RETENTION_POLICY, ai_calls: 7, audit_log: 0 });
  });

  test.each(['-1', '1.5', 'abc', ' ', '36501'])('%j is refused, naming the variable', (value) => {
    expect(() => retentionPolicyFromEnv((name) => (name === 'RETENTION_JOB_RUNS_DAYS' ? value : undefined))).toThrow(
      /RETENTION_JOB_RUNS_DAYS/,
    );
  });

  test('cut-offs: days before now per category, null when kept for ever, fixed windows for the counters', () => {
    const cutoffs = retentionCutoffs({ ...POLICY, audit_log: 0 }, NOW);
    expect(Object.keys(cutoffs).sort()).toEqual([...RETENTION_CATEGORIES].sort());
    expect(cutoffs.ai_calls).toEqual(ago(30 * DAY));
    expect(cutoffs.audit_log).toBeNull();
    expect(cutoffs.rate_limit_counters).toEqual(ago(2 * DAY));
    expect(cutoffs.ai_quota_reservations).toEqual(ago(HOUR));
  });
});
