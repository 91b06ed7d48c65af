/**
 * The twin refuses what AWS would refuse, because it runs the synthesized deployment. Each twin here runs
 * the deployment changed the way a mistake in the stacks would change it: a variable not bound, a Lambda
 * permission or an IAM grant missing, a scheduled run that breaks (a timeout the work does not fit in:
 * function-timeout.e2e.test.ts).
 * PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ENV } from '#core/config';
import { DEMO_INVESTIGATION_IDS } from '#core/seed/demo';
import { changing, useTwin } from '../support/twin';

const INVESTIGATION = DEMO_INVESTIGATION_IDS.northwind;

describe('a handler reading a variable its function is not given', () => {
  // as if the stacks forgot to bind the generation queue to analysis-create
  const e2e = useTwin({
    schedules: false,
    transformPlan: changing('analysis-create', (fn) => ({
      ...fn,
      environment: Object.fromEntries(Object.entries(fn.environment).filter(([name]) => name !== ENV.generationQueueUrl)),
    })),
  });

  test('fails, as the deployed function would', async () => {
    const token = await e2e.token('investigator');
    const res = await e2e.call('POST', '/api/analysis', token, { investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(res.status).toBe(503);
    expect(e2e.logged('analysis-create')).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        message: 'could not queue an analysis',
        error: expect.objectContaining({ message: `environment variable ${ENV.generationQueueUrl} is not set` }),
      }),
    );
  });
});

describe('an integration whose function does not let API Gateway invoke it', () => {
  // as if the stack forgot the AWS::Lambda::Permission of the health route
  const e2e = useTwin({ schedules: false, transformPlan: changing('health', (fn) => ({ ...fn, invokers: [] })) });

  test('answers 500, and the function never runs', async () => {
    expect(await e2e.call('GET', '/api/health')).toMatchObject({ status: 500, body: { message: 'Internal Server Error' } });
    expect(e2e.twin.invocations('health')).toEqual([]);
    expect((await e2e.call('GET', '/api/openapi.json')).status).toBe(200);
  });
});

describe('a scheduled run that fails', () => {
  // the watchdog deployed without its database user: every run fails
  const e2e = useTwin({
    transformPlan: changing('analysis-watchdog', (fn) => ({
      ...fn,
      environment: Object.fromEntries(Object.entries(fn.environment).filter(([name]) => name !== ENV.dbUser)),
    })),
  });

  test('is recorded as failed; the other schedules run', () => {
    const runs = e2e.twin.scheduleRuns();
    expect(runs.find((r) => r.functionId === 'analysis-watchdog')).toMatchObject({ ok: false, timedOut: false, error: expect.any(String) });
    expect(runs.filter((r) => r.functionId !== 'analysis-watchdog').every((r) => r.ok)).toBe(true);
  });

  test("its failure reaches the schedules' dead-letter queue as Lambda's failure destination sends it, where the alarm sees it", async () => {
    const { plan } = e2e.twin;
    const watchdog = plan.functions.find((fn) => fn.id === 'analysis-watchdog')!;
    expect(watchdog.asyncInvoke).toMatchObject({ maximumRetryAttempts: 0 });
    const queue = plan.queues.find((q) => q.arn === watchdog.asyncInvoke.onFailure)!;
    expect(queue.name).toBe('ias-dev-schedule-failures');
    const sqs = new SQSClient(e2e.awsConfig());
    try {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10 }));
      const records = Messages.map((m) => JSON.parse(m.Body!));
      // only the failed function's: the others' runs went well
      expect(records.map((r) => r.requestContext.functionArn)).toEqual([`${watchdog.arn}:$LATEST`]);
      expect(records[0]).toMatchObject({
        version: '1.0',
        requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 1 },
        requestPayload: { source: 'schedule', function_id: 'analysis-watchdog' },
        responseContext: { functionError: 'Unhandled' },
        responsePayload: { errorMessage: expect.stringContaining(ENV.dbUser) },
      });
    } finally {
      sqs.destroy();
    }
  });
});

describe('a schedule whose role may not invoke its target', () => {
  // the retention schedule's role without its lambda:InvokeFunction statement
  const e2e = useTwin({
    transformPlan: (plan) => ({
      ...plan,
      schedules: plan.schedules.map((s) =>
        s.functionId === 'retention-sweep'
          ? { ...s, policy: s.policy.filter((st) => ![st.Action].flat().includes('lambda:InvokeFunction')) }
          : s,
      ),
    }),
  });

  test('never runs the function; the run is recorded as failed', () => {
    expect(e2e.twin.scheduleRuns().find((r) => r.functionId === 'retention-sweep')).toMatchObject({
      ok: false,
      error: expect.stringContaining('AccessDeniedException'),
    });
    expect(e2e.twin.invocations('retention-sweep')).toEqual([]);
  });
});

describe('a grant removed from a synthesized policy', () => {
  // analysis-create's role without the statement that lets it send to the generation queue
  const e2e = useTwin({
    schedules: false,
    transformPlan: changing('analysis-create', (fn) => ({
      ...fn,
      policy: fn.policy.filter((s) => ![s.Action].flat().includes('sqs:SendMessage')),
    })),
  });

  test('the call is refused with AWS AccessDenied, naming the role, the action and the queue', async () => {
    const token = await e2e.token('investigator');
    const res = await e2e.call('POST', '/api/analysis', token, { investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(res.status).toBe(503);
    const queue = e2e.twin.aws.queues.generation.arn;
    expect(e2e.twin.awsCalls().filter((c) => c.functionId === 'analysis-create' && c.service === 'sqs')).toEqual([
      expect.objectContaining({ action: 'sqs:SendMessage', resource: queue, allowed: false }),
    ]);
    const role = e2e.twin.plan.functions.find((fn) => fn.id === 'analysis-create')!.roleName;
    const logged = e2e.logged('analysis-create').find((r) => r.message === 'could not queue an analysis');
    expect(logged?.error).toMatchObject({
      name: 'AccessDenied',
      message: expect.stringMatching(
        new RegExp(
          `^User: arn:aws:sts::000000000000:assumed-role/${role}/ias-dev-analysis-create is not authorized to perform: sqs:sendmessage on resource: ${queue}`,
        ),
      ),
    });
  });

  test('the other functions keep their grants', async () => {
    expect(e2e.twin.awsCalls().filter((c) => c.functionId !== 'analysis-create' && !c.allowed)).toEqual([]);
  });
});
