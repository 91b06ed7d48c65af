/**
 * The twin's plan of the synthesized deployment refuses what a deploy would refuse: here, an event
 * source mapping whose queue's visibility timeout is shorter than its function's timeout (Lambda's
 * CreateEventSourceMapping rejects it), and stage route settings for a route the API does not have.
 * The cloud assembly is the one global-setup rendered, or, with the gateway's throttles on, the one the
 * throttle end-to-end test runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureAssembly, readAssembly } from '../../lib/twin/assembly/assembly';
import { planFromAssembly } from '../../lib/twin/assembly/plan';
import { evaluate } from '../../lib/twin/iam/policy';
import { DEFAULT_ROUTE_THROTTLE, ROUTE_THROTTLES } from '../../lib/stacks/api-stack';
import { E2E_CONTEXT } from '../support/render';
import { visibilityTimeoutSeconds } from '#manifest';
import { REQUIRED_BOOTSTRAP_VERSION } from '../../lib/operator/cli-preflight';

const assembly = async (context: Record<string, string> = E2E_CONTEXT) => readAssembly(await ensureAssembly(context));
const WITH_THROTTLES = { ...E2E_CONTEXT, gatewayThrottles: 'on' };

test('the deployment as synthesized plans: each worker fits its queue visibility timeout', async () => {
  const plan = planFromAssembly(await assembly());
  for (const mapping of plan.eventSources) {
    const queue = plan.queues.find((q) => q.arn === mapping.queueArn)!;
    expect(Number(queue.attributes.VisibilityTimeout)).toBeGreaterThanOrEqual(
      plan.functions.find((f) => f.id === mapping.functionId)!.timeoutSeconds,
    );
  }
});

test('npm run preflight asks for the bootstrap version the synthesized assembly requires', async () => {
  const manifest = JSON.parse(readFileSync(join(await ensureAssembly(E2E_CONTEXT), 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { properties?: { requiresBootstrapStackVersion?: number } }>;
  };
  const required = Object.values(manifest.artifacts).map((a) => a.properties?.requiresBootstrapStackVersion ?? 0);
  expect(REQUIRED_BOOTSTRAP_VERSION).toBe(Math.max(...required));
});

test('a worker whose timeout outlasts its queue visibility timeout is refused, as at deploy', async () => {
  const synthesized = await assembly();
  const worker = synthesized.functions.find((f) => f.id === 'quality-worker')!;
  const templates = new Map(synthesized.templates);
  const template = structuredClone(templates.get(worker.stack)!);
  template.Resources[worker.logicalId]!.Properties!.Timeout = 3600;
  templates.set(worker.stack, template);
  expect(() => planFromAssembly({ ...synthesized, templates })).toThrow(
    `event source of quality-worker: Queue visibility timeout: ${visibilityTimeoutSeconds('quality')} seconds is less than Function timeout: 3600 seconds`,
  );
});

test("a function whose environment variables pass Lambda's 4 KB is refused, as at deploy; the deployment's fit", async () => {
  const synthesized = await assembly();
  const size = (environment: Record<string, string>) =>
    Object.entries(environment).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
  const planned = planFromAssembly(synthesized).functions;
  expect(Math.max(...planned.map((f) => size(f.environment)))).toBeLessThanOrEqual(4096);
  const fn = synthesized.functions.find((f) => f.id === 'analysis-get')!;
  const templates = new Map(synthesized.templates);
  const template = structuredClone(templates.get(fn.stack)!);
  const variables = (template.Resources[fn.logicalId]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
  // counted as deployed: the values resolved (ARNs, URLs), not the template's intrinsics
  const room = 4096 - size(planned.find((f) => f.id === 'analysis-get')!.environment);
  variables.PADDING = 'x'.repeat(room - 'PADDING'.length);
  templates.set(fn.stack, template);
  expect(() => planFromAssembly({ ...synthesized, templates })).not.toThrow();
  variables.PADDING = `${String(variables.PADDING)}x`;
  expect(() => planFromAssembly({ ...synthesized, templates })).toThrow('exceeded the 4KB limit (4097 bytes)');
});

test('the database proxy as synthesized: TLS and IAM authentication required; its functions may connect as its user only', async () => {
  const plan = planFromAssembly(await assembly());
  expect(plan.database).toMatchObject({
    requireTls: true,
    iamAuth: true,
    proxyPort: 5432,
    proxyResourceId: expect.stringMatching(/^prx-[0-9a-z]{17}$/),
  });
  const connect = (policy: (typeof plan.functions)[number]['policy'], user: string) =>
    evaluate(policy, {
      principalArn: 'arn:aws:sts::000000000000:assumed-role/role/fn',
      action: 'rds-db:connect',
      resource: `arn:aws:rds-db:${plan.region}:${plan.account}:dbuser:${plan.database.proxyResourceId}/${user}`,
    }).allowed;
  const users = plan.functions.filter((f) => f.environment.DB_HOST);
  expect(users.length).toBeGreaterThan(10);
  for (const fn of users) {
    expect(fn.environment.DB_USER).toBe('analysis_app');
    expect([connect(fn.policy, 'analysis_app'), connect(fn.policy, 'postgres')]).toEqual([true, false]);
  }
  for (const fn of plan.functions.filter((f) => !f.environment.DB_HOST)) expect(connect(fn.policy, 'analysis_app')).toBe(false);
});

test("the stage's throttles as synthesized: the default, and every route its own; none when the stage has none", async () => {
  const { throttles, routes } = planFromAssembly(await assembly(WITH_THROTTLES)).api;
  expect(throttles.default).toEqual(DEFAULT_ROUTE_THROTTLE);
  expect(Object.keys(throttles.routes).sort()).toEqual(routes.map((route) => route.routeKey).sort());
  expect(throttles.routes).toMatchObject({
    'POST /api/auth/login': ROUTE_THROTTLES.auth,
    'GET /api/health': ROUTE_THROTTLES.public,
    'GET /api/analysis/{analysis_id}': ROUTE_THROTTLES.investigatorRead,
    'POST /api/analysis': ROUTE_THROTTLES.investigatorWrite,
  });
  expect(planFromAssembly(await assembly()).api.throttles).toEqual({ routes: {} });
});

test('stage route settings are refused, as at deploy, for a route the API does not have; a throttle with one figure is not guessed at', async () => {
  const synthesized = await assembly(WITH_THROTTLES);
  const withStage = (change: (properties: Record<string, unknown>) => void) => {
    const templates = new Map([...synthesized.templates].map(([stack, template]) => [stack, structuredClone(template)]));
    const stage = [...templates.values()]
      .flatMap((t) => Object.values(t.Resources))
      .find((resource) => resource.Type === 'AWS::ApiGatewayV2::Stage')!;
    change(stage.Properties!);
    return () => planFromAssembly({ ...synthesized, templates });
  };
  expect(
    withStage((stage) => {
      (stage.RouteSettings as Record<string, unknown>)['GET /api/nowhere'] = { ThrottlingRateLimit: 1, ThrottlingBurstLimit: 1 };
    }),
  ).toThrow('Unable to find Route by key GET /api/nowhere within the provided RouteSettings');
  expect(
    withStage((stage) => {
      stage.DefaultRouteSettings = { ThrottlingRateLimit: 5 };
    }),
  ).toThrow("the stage's DefaultRouteSettings: the twin models a throttle with both ThrottlingRateLimit and ThrottlingBurstLimit");
});

test('EventBridge rules and bucket notifications the twin cannot deliver exactly are refused, never guessed at', async () => {
  const synthesized = await assembly();
  const changed = (type: string, change: (properties: Record<string, unknown>) => void) => {
    const templates = new Map([...synthesized.templates].map(([stack, template]) => [stack, structuredClone(template)]));
    const resource = [...templates.values()].flatMap((t) => Object.values(t.Resources)).find((r) => r.Type === type)!;
    change(resource.Properties!);
    return () => planFromAssembly({ ...synthesized, templates });
  };
  const target = (properties: Record<string, unknown>) => (properties.Targets as Record<string, unknown>[])[0]!;
  expect(changed('AWS::Events::Rule', (rule) => void (target(rule).InputPath = '$.detail'))).toThrow(/does not model a target's InputPath/);
  expect(changed('AWS::Events::Rule', (rule) => void (target(rule).DeadLetterConfig = { Arn: 'x' }))).toThrow(/DeadLetterConfig/);
  expect(changed('AWS::Events::Rule', (rule) => void (target(rule).Arn = 'arn:aws:lambda:us-east-1:000000000000:function:f'))).toThrow(
    /delivers to SQS queues only/,
  );
  expect(changed('AWS::Events::Rule', (rule) => void (rule.EventBusName = 'files'))).toThrow(/default event bus only/);
  expect(
    changed(
      'AWS::Events::Rule',
      (rule) => void ((rule.EventPattern as Record<string, unknown>).detail = { object: { size: [{ numeric: ['>', 0] }] } }),
    ),
  ).toThrow(/does not model the EventBridge filter "numeric"/);
  // a disabled rule delivers nothing, as in EventBridge
  expect(changed('AWS::Events::Rule', (rule) => void (rule.State = 'DISABLED'))().rules).toHaveLength(1);
  expect(
    changed(
      'AWS::S3::Bucket',
      (bucket) => void (bucket.NotificationConfiguration = { QueueConfigurations: [{ Event: 's3:ObjectCreated:*', Queue: 'x' }] }),
    ),
  ).toThrow(/EventBridge notifications only, not QueueConfigurations/);
});
