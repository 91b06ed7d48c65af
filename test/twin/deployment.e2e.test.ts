/**
 * The twin refuses what AWS would refuse, because it runs the synthesized deployment: a function sees
 * only its template environment, its AWS calls are checked against its synthesized IAM policy, it is
 * ended at its configured timeout, and the tokens are those a Cognito pool of this configuration issues
 * (with its pre-token-generation trigger). Each twin here runs a deployment changed the way a mistake in
 * the stacks would change it. PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { decodeJwt } from 'jose';
import { ENV } from '../../layers/core/config';
import { DEMO_INVESTIGATION_IDS } from '../../layers/core/seed/demo';
import type { TwinPlan } from '../../lib/twin/assembly/plan';
import { AI_REGIONS } from '../../lib/twin/twin';
import { useTwin } from '../support/twin';

const INVESTIGATION = DEMO_INVESTIGATION_IDS.northwind;

/** The deployment with one function changed. */
const changing = (functionId: string, change: (fn: TwinPlan['functions'][number]) => TwinPlan['functions'][number]) => (plan: TwinPlan): TwinPlan => ({
  ...plan,
  functions: plan.functions.map((fn) => (fn.id === functionId ? change(fn) : fn)),
});

describe('the deployment as synthesized', () => {
  const e2e = useTwin();

  test('an access token has the claims a Cognito access token of this pool has, plus what the trigger adds', async () => {
    const { userPool } = e2e.twin.plan;
    const claims = decodeJwt(await e2e.token('admin'));
    // Cognito's access token claims (user pool JWT reference), cognito:groups for a member of a group;
    // the pre-token-generation trigger adds organization_id and email; no other user attribute is there
    expect(Object.keys(claims).sort()).toEqual([
      'auth_time', 'client_id', 'cognito:groups', 'email', 'event_id', 'exp', 'iat', 'iss', 'jti', 'organization_id', 'origin_jti', 'scope', 'sub', 'token_use', 'username',
    ]);
    expect(claims).toMatchObject({
      iss: userPool.issuer, client_id: userPool.clients[0]!.id, token_use: 'access', scope: 'aws.cognito.signin.user.admin', 'cognito:groups': ['admin'],
    });
    expect(claims.exp! - claims.iat!).toBe(userPool.clients[0]!.accessTokenMinutes * 60);
    // an investigator is in no group: Cognito then writes no cognito:groups claim at all
    expect(decodeJwt(await e2e.token('investigator'))).not.toHaveProperty('cognito:groups');
  });

  test('the ID token carries the attributes the app client may read, the custom attribute included', async () => {
    const signIn = await e2e.call('POST', '/api/auth/login', undefined, { email: 'investigator@northwind.example', password: 'Demo-Password-1!' });
    expect(signIn.status).toBe(200);
    const id = decodeJwt(signIn.body.id_token);
    expect(Object.keys(id).sort()).toEqual([
      'aud', 'auth_time', 'cognito:username', 'custom:organization_id', 'email', 'email_verified', 'event_id', 'exp', 'iat', 'iss', 'jti', 'organization_id', 'origin_jti', 'sub', 'token_use',
    ]);
    expect(id['custom:organization_id']).toBe(id.organization_id);
    expect(decodeJwt(signIn.body.access_token)).not.toHaveProperty('custom:organization_id');
  });

  test('every function runs with exactly its template environment: the routes work, and nothing else is set', async () => {
    const token = await e2e.token('investigator');
    expect((await e2e.call('GET', '/api/investigations', token)).status).toBe(200);
    // the twin's own wiring lives in no function's environment
    for (const fn of e2e.twin.plan.functions) {
      expect(Object.keys(fn.environment).filter((name) => name.startsWith('AWS_ENDPOINT_URL') || name === 'DATABASE_URL' || name === 'CRON_SECRET')).toEqual([]);
    }
  });

  test('an analysis runs end to end on the grants as synthesized, in the primary region, with no call refused', async () => {
    const token = await e2e.token('investigator');
    // a minute later, as it were: the start-up sweep's quota reservations gone, so the primary region serves
    await e2e.twin.database.db.deleteFrom('ai_quota_reservations').execute();
    const created = await e2e.call('POST', '/api/analysis', token, { investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(created.status).toBe(202);
    expect((await e2e.pollUntilGenerated(created.body.analysis_id, token)).generation_status).not.toBe('failed');
    for (let i = 0; i < 100 && !e2e.twin.invocations('quality-worker').some((x) => x.ok); i++) await new Promise((r) => setTimeout(r, 100));
    const calls = e2e.twin.awsCalls();
    expect(calls.filter((c) => !c.allowed)).toEqual([]);
    const primary = (fn: string) => calls.filter((c) => c.functionId === fn && c.action === 'bedrock:InvokeModel' && c.resource.includes(`:${AI_REGIONS.primary}:`));
    expect(primary('generation-worker').length).toBeGreaterThanOrEqual(2); // the question's embedding, the analysis
    expect(primary('quality-worker').length).toBeGreaterThanOrEqual(1);
  }, 30_000);

  test('a function outside the VPC never reaches the database proxy', () => {
    const outside = e2e.twin.plan.functions.filter((fn) => !fn.inVpc).map((fn) => fn.id);
    expect(outside).toEqual(expect.arrayContaining(['openapi', 'pre-token-generation']));
    expect(e2e.twin.plan.functions.filter((fn) => fn.environment[ENV.dbHost]).every((fn) => fn.inVpc)).toBe(true);
  });
});

describe('a handler reading a variable its function is not given', () => {
  // as if the stacks forgot to bind the generation queue to analysis-create
  const e2e = useTwin({
    schedules: false,
    transformPlan: changing('analysis-create', (fn) => ({ ...fn, environment: Object.fromEntries(Object.entries(fn.environment).filter(([name]) => name !== ENV.generationQueueUrl)) })),
  });

  test('fails, as the deployed function would', async () => {
    const token = await e2e.token('investigator');
    const res = await e2e.call('POST', '/api/analysis', token, { investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(res.status).toBe(503);
    expect(e2e.logged('analysis-create')).toContainEqual(expect.objectContaining({
      level: 'ERROR', message: 'could not queue an analysis', error: expect.objectContaining({ message: `environment variable ${ENV.generationQueueUrl} is not set` }),
    }));
  });
});

describe('a scheduled run that fails', () => {
  // the watchdog deployed without its database secret: every run fails
  const e2e = useTwin({
    transformPlan: changing('analysis-watchdog', (fn) => ({ ...fn, environment: Object.fromEntries(Object.entries(fn.environment).filter(([name]) => name !== ENV.dbSecretArn)) })),
  });

  test('is recorded as failed; the other schedules run', () => {
    const runs = e2e.twin.scheduleRuns();
    expect(runs.find((r) => r.functionId === 'analysis-watchdog')).toMatchObject({ ok: false, timedOut: false, error: expect.any(String) });
    expect(runs.filter((r) => r.functionId !== 'analysis-watchdog').every((r) => r.ok)).toBe(true);
  });
});

describe('a grant removed from a synthesized policy', () => {
  // analysis-create's role without the statement that lets it send to the generation queue
  const e2e = useTwin({
    schedules: false,
    transformPlan: changing('analysis-create', (fn) => ({ ...fn, policy: fn.policy.filter((s) => ![s.Action].flat().includes('sqs:SendMessage')) })),
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
      message: expect.stringMatching(new RegExp(`^User: arn:aws:sts::000000000000:assumed-role/${role}/ias-dev-analysis-create is not authorized to perform: sqs:sendmessage on resource: ${queue}`)),
    });
  });

  test('the other functions keep their grants', async () => {
    expect(e2e.twin.awsCalls().filter((c) => c.functionId !== 'analysis-create' && !c.allowed)).toEqual([]);
  });
});

describe('Bedrock answering after 90 seconds', () => {
  // the quality worker deployed with a 4-second timeout, so the test need not wait its real 120 s out
  const TIMEOUT_S = 4;
  const e2e = useTwin({
    visibilityTimeoutSeconds: 5,
    transformPlan: changing('quality-worker', (fn) => ({ ...fn, timeoutSeconds: TIMEOUT_S })),
  });

  test('the quality worker is ended at its configured timeout, and its message comes back', async () => {
    const token = await e2e.token('investigator');
    const created = await e2e.call('POST', '/api/analysis', token, { investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(created.status).toBe(202);
    const generated = await e2e.pollUntilGenerated(created.body.analysis_id, token);
    expect(['complete', 'checking', 'verified']).toContain(generated.generation_status);
    // wait for the automatic check to finish, then make Bedrock answer after 90 s and check again (both
    // regions: the start-up embedding sweep may have spent the primary's minute of quota already)
    for (let i = 0; i < 100 && e2e.twin.invocations('quality-worker').length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    for (const region of [AI_REGIONS.primary, AI_REGIONS.fallback]) e2e.twin.bedrock.setFaults(region, { latencyMs: 90_000 });
    try {
      const before = e2e.twin.invocations('quality-worker').length;
      await new Promise((r) => setTimeout(r, 500));
      const check = await e2e.call('POST', `/api/analysis/${created.body.analysis_id}/quality-check`, token);
      expect([202, 409]).toContain(check.status);
      const deadline = Date.now() + 30_000;
      while (e2e.twin.invocations('quality-worker').slice(before).filter((i) => i.timedOut).length < 2 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      const timedOut = e2e.twin.invocations('quality-worker').slice(before).filter((i) => i.timedOut);
      // the same message, twice: deleted by no one, back after the visibility timeout
      expect(timedOut.length).toBeGreaterThanOrEqual(2);
      for (const invocation of timedOut) {
        expect(invocation.durationMs).toBeGreaterThanOrEqual(TIMEOUT_S * 1000);
        expect(invocation.durationMs).toBeLessThan(TIMEOUT_S * 1000 + 1000);
        expect(invocation.errorType).toBe('Sandbox.Timedout');
      }
      expect(e2e.twin.logs('quality-worker').map((l) => l.text)).toContainEqual(expect.stringContaining(`Task timed out after ${TIMEOUT_S}.00 seconds`));
    } finally {
      e2e.twin.bedrock.clearFaults();
    }
  }, 60_000);
});
