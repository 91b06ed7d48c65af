/**
 * The operations routes and the payment webhook end to end through the twin (API Gateway stand-in →
 * handlers → PGlite or PostgreSQL with TEST_DATABASE_URL, fauxqs for SQS): queue statistics from real
 * GetQueueAttributes calls (DLQ included) with the shedder, the jobs status, the retention sweep on its
 * cron route and its schedule, and signed webhook deliveries.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { jobsStatusSchema } from '#core/operations/contract';
import { queueStatsSchema } from '#core/operations/queue-stats';
import { RETENTION_LOG_MARKER, retentionRunSchema } from '#core/operations/retention';
import { signatureHeader } from '#core/payments/signature';
import { FIRST_PAID_INVOICE } from '#core/payments/webhook';
import { AI_REGIONS, type Twin } from '../../lib/twin/twin';
import type { TwinTest } from '../support/twin';

export const operationsRoutes = (e2e: TwinTest): void => {
  let twin: Twin;
  let db: Kysely<Database>;
  const tokens = { admin: '', investigator: '' };

  beforeAll(async () => {
    twin = e2e.twin;
    db = twin.database.db;
    const organizationId = (await db.insertInto('organizations').values({ name: 'Ops Org' }).returning('id').executeTakeFirstOrThrow()).id;
    tokens.admin = await twin.token({ subject: 'ops-admin', email: 'ops-admin@example.test', role: 'admin', organizationId: undefined });
    tokens.investigator = await twin.token({ subject: 'ops-inv', email: 'ops-inv@example.test', role: 'investigator', organizationId });
  }, 60_000);

  const DAY = 86_400_000;

  describe('GET /api/admin/queue-stats', () => {
    test('admins only', async () => {
      expect((await e2e.call('GET', '/api/admin/queue-stats')).status).toBe(401);
      const res = await e2e.call('GET', '/api/admin/queue-stats', tokens.investigator);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    });

    test('per queue: the SQS numbers and the DLQ depth; and the shedder, hot after a throttle storm', async () => {
      const sqs = new SQSClient(e2e.awsConfig());
      for (const n of [1, 2]) {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: twin.aws.queues.generation.dlqUrl,
            MessageBody: JSON.stringify({ analysis_id: `dead-${n}` }),
          }),
        );
      }
      const res = await e2e.call('GET', '/api/admin/queue-stats', tokens.admin);
      expect(res.status).toBe(200);
      expect(queueStatsSchema.parse(res.body)).toEqual(res.body);
      expect(res.body.queues.generation).toMatchObject({ dlq_depth: 2, error: null });
      expect(res.body.queues.quality).toMatchObject({ dlq_depth: 0, error: null });
      for (const q of ['generation', 'quality']) expect(res.body.queues[q].visible).toEqual(expect.any(Number));
      expect(res.body.shedder).toEqual({ hot: false, recentThrottles: 0, fallbackRegion: AI_REGIONS.fallback, disabled: false });

      await db
        .insertInto('ai_calls')
        .values(
          Array.from({ length: 4 }, () => ({
            purpose: 'quality' as const,
            region: AI_REGIONS.primary,
            model_id: 'm',
            outcome: 'throttled' as const,
            error_name: 'ThrottlingException',
          })),
        )
        .execute();
      const hot = await e2e.call('GET', '/api/admin/queue-stats', tokens.admin);
      expect(hot.body.shedder).toMatchObject({ hot: true, recentThrottles: 4 });
      await db.deleteFrom('ai_calls').execute();
    });
  });

  describe('the retention sweep and the jobs status', () => {
    const PATH = '/api/admin/cron/retention';
    let oldFailure: string;
    let newFailure: string;

    beforeAll(async () => {
      const failure = (at: Date) =>
        db
          .insertInto('audit_failures')
          .values({ action: 'auth.login_failed', error_message: 'x', created_at: at })
          .returning('id')
          .executeTakeFirstOrThrow()
          .then((r) => String(r.id));
      oldFailure = await failure(new Date(Date.now() - 120 * DAY));
      newFailure = await failure(new Date());
    });
    const failures = async () => (await db.selectFrom('audit_failures').select('id').orderBy('id').execute()).map((r) => String(r.id));

    test('a wrong cron secret → 401; an investigator → 403; nothing swept, no run recorded', async () => {
      expect((await e2e.call('POST', PATH, 'not-the-cron-secret')).status).toBe(401);
      expect((await e2e.call('POST', PATH, tokens.investigator)).status).toBe(403);
      expect(await failures()).toEqual([oldFailure, newFailure]);
      expect(await db.selectFrom('job_runs').select('id').execute()).toEqual([]);
    });

    test('the cron secret → 200 with the report; old rows gone, new kept; RetentionCronLastRun logged; jobs status shows the run', async () => {
      const res = await e2e.call('POST', PATH, twin.cronSecret);
      expect(res.status).toBe(200);
      expect(retentionRunSchema.parse(res.body)).toEqual(res.body);
      expect(res.body.categories.audit_failures).toMatchObject({ deleted: 1, complete: true });
      expect(res.body).toMatchObject({ deleted_total: 1, complete: true });
      expect(await failures()).toEqual([newFailure]);
      const { job_run_id, ...report } = res.body;
      expect(e2e.logged('retention-sweep')).toContainEqual(
        expect.objectContaining({ level: 'INFO', message: RETENTION_LOG_MARKER, jobRunId: job_run_id, trigger: 'http', report }),
      );

      expect((await e2e.call('GET', '/api/admin/jobs/status', tokens.investigator)).status).toBe(403);
      const status = await e2e.call('GET', '/api/admin/jobs/status', tokens.admin);
      expect(status.status).toBe(200);
      expect(jobsStatusSchema.parse(status.body)).toEqual(status.body);
      const retention = status.body.jobs.find((j: { job: string }) => j.job === 'retention-sweep');
      expect(retention).toMatchObject({ schedule: 'rate(1 day)', last_run: { job_run_id, trigger: 'http', status: 'succeeded', report } });
      expect(retention.last_succeeded_at).toEqual(retention.last_run.finished_at);
      expect(status.body.jobs.find((j: { job: string }) => j.job === 'embedding-sweeper')).toMatchObject({ last_run: null });
      expect(status.body.queues.generation).toMatchObject({ dlq_depth: 2, error: null });
      expect(status.body.analyses_in_flight.queued).toEqual({ count: 0, oldest_age_seconds: null });
    });

    test('an admin token may run it, and the daily schedule runs the same handler', async () => {
      expect((await e2e.call('POST', PATH, tokens.admin)).status).toBe(200);
      // what EventBridge Scheduler sends: the schedule's input, to the function
      const schedule = twin.plan.schedules.find((s) => s.functionId === 'retention-sweep')!;
      expect(schedule.expression).toBe('rate(1 day)');
      const outcome = await twin.invoke(schedule.functionId, JSON.parse(schedule.input!));
      const result = retentionRunSchema.parse(outcome.ok ? outcome.value : outcome.error);
      const run = await db.selectFrom('job_runs').selectAll().where('id', '=', result.job_run_id).executeTakeFirstOrThrow();
      expect(run).toMatchObject({ job: 'retention-sweep', trigger: 'schedule', status: 'succeeded' });
    });
  });

  describe('POST /api/webhooks/payment', () => {
    const deliver = async (payload: string, signature?: string) => {
      const res = await fetch(`${twin.url}/api/webhooks/payment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature !== undefined && { 'stripe-signature': signature }) },
        body: payload,
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const now = () => Math.floor(Date.now() / 1000);
    const paid = (id: string, amount: number) =>
      JSON.stringify({ id, type: 'invoice.paid', data: { object: { id: `in_${id}`, amount_paid: amount, currency: 'usd' } } });
    const stored = async () =>
      (await db.selectFrom('payment_events').select('event_id').orderBy('event_id').execute()).map((r) => r.event_id);

    test('refused deliveries store nothing: no, bad or stale signature (401), malformed JSON or event, NUL or lone surrogate (400)', async () => {
      const body = paid('evt_refused', 100);
      expect(await deliver(body)).toMatchObject({
        status: 401,
        body: { error: { code: 'invalid_signature', details: { reason: 'missing' } } },
      });
      expect(await deliver(body, signatureHeader('whsec_wrong', now(), body))).toMatchObject({
        status: 401,
        body: { error: { details: { reason: 'mismatch' } } },
      });
      expect(await deliver(body, signatureHeader(twin.webhookSecret, now() - 301, body))).toMatchObject({
        status: 401,
        body: { error: { details: { reason: 'stale' } } },
      });
      expect((await deliver('{not json', signatureHeader(twin.webhookSecret, now(), '{not json'))).status).toBe(400);
      const noAmount = JSON.stringify({ id: 'evt_bad', type: 'invoice.paid', data: { object: {} } });
      const bad = await deliver(noAmount, signatureHeader(twin.webhookSecret, now(), noAmount));
      expect(bad).toMatchObject({
        status: 400,
        body: { error: { code: 'validation_failed', details: [{ path: 'data.object.amount_paid' }] } },
      });
      // a NUL or an unpaired surrogate, signed: a 400 naming the field (PostgreSQL would refuse it: a 500, retried forever)
      for (const [hostile, path] of [
        [paid('evt_\u0000nul', 100), 'id'],
        [paid('evt_lone', 100).replace('"usd"', '"us\\ud800"'), 'data.object.currency'],
      ] as const) {
        const refused = await deliver(hostile, signatureHeader(twin.webhookSecret, now(), hostile));
        expect(refused).toMatchObject({
          status: 400,
          body: { error: { code: 'validation_failed', details: expect.arrayContaining([expect.objectContaining({ path })]) } },
        });
      }
      expect(await stored()).toEqual([]);
      expect(await db.selectFrom('milestones').selectAll().execute()).toEqual([]);
    });

    test('a signed zero invoice, the first paid one (milestone), its replay (duplicate), a second paid one', async () => {
      const send = (body: string) => deliver(body, signatureHeader(twin.webhookSecret, now(), body));
      expect(await send(paid('evt_zero', 0))).toEqual({
        status: 200,
        body: { received: true, event_id: 'evt_zero', duplicate: false, milestone: null },
      });
      expect(await send(paid('evt_first', 2500))).toEqual({
        status: 200,
        body: { received: true, event_id: 'evt_first', duplicate: false, milestone: FIRST_PAID_INVOICE },
      });
      expect(await send(paid('evt_first', 2500))).toEqual({
        status: 200,
        body: { received: true, event_id: 'evt_first', duplicate: true, milestone: null },
      });
      expect(await send(paid('evt_second', 9900))).toMatchObject({ status: 200, body: { duplicate: false, milestone: null } });
      expect(await stored()).toEqual(['evt_first', 'evt_second', 'evt_zero']);
      const milestones = await db.selectFrom('milestones').selectAll().execute();
      expect(milestones).toHaveLength(1);
      expect(milestones[0]).toMatchObject({ key: FIRST_PAID_INVOICE, detail: { event_id: 'evt_first', amount_cents: 2500 } });
    });
  });
};
