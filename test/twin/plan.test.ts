/**
 * The twin's plan of the synthesized deployment refuses what a deploy would refuse: here, an event
 * source mapping whose queue's visibility timeout is shorter than its function's timeout (Lambda's
 * CreateEventSourceMapping rejects it). The cloud assembly is the one global-setup rendered.
 */
import { ensureAssembly, readAssembly } from '../../lib/twin/assembly/assembly';
import { planFromAssembly } from '../../lib/twin/assembly/plan';
import { evaluate } from '../../lib/twin/iam/policy';

const assembly = async () => readAssembly(await ensureAssembly({ rateLimits: 'off' }));

test('the deployment as synthesized plans: each worker fits its queue visibility timeout', async () => {
  const plan = planFromAssembly(await assembly());
  for (const mapping of plan.eventSources) {
    const queue = plan.queues.find((q) => q.arn === mapping.queueArn)!;
    expect(Number(queue.attributes.VisibilityTimeout)).toBeGreaterThanOrEqual(plan.functions.find((f) => f.id === mapping.functionId)!.timeoutSeconds);
  }
});

test('a worker whose timeout outlasts its queue visibility timeout is refused, as at deploy', async () => {
  const synthesized = await assembly();
  const worker = synthesized.functions.find((f) => f.id === 'quality-worker')!;
  const templates = new Map(synthesized.templates);
  const template = structuredClone(templates.get(worker.stack)!);
  template.Resources[worker.logicalId]!.Properties!.Timeout = 3600;
  templates.set(worker.stack, template);
  expect(() => planFromAssembly({ ...synthesized, templates }))
    .toThrow('event source of quality-worker: Queue visibility timeout: 720 seconds is less than Function timeout: 3600 seconds');
});

test('the database proxy as synthesized: TLS and IAM authentication required; its functions may connect as its user only', async () => {
  const plan = planFromAssembly(await assembly());
  expect(plan.database).toMatchObject({ requireTls: true, iamAuth: true, proxyPort: 5432, proxyResourceId: expect.stringMatching(/^prx-[0-9a-z]{17}$/) });
  const connect = (policy: (typeof plan.functions)[number]['policy'], user: string) => evaluate(policy, {
    principalArn: 'arn:aws:sts::000000000000:assumed-role/role/fn', action: 'rds-db:connect',
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
