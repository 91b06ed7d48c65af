/**
 * The twin end to end: HTTP → API Gateway stand-in (JWT authorizer) → the deployed handler bundle in
 * its own isolate → the database proxy; a queue message → fauxqs → worker → DLQ; a Converse call
 * through the real SDK client and the AWS edge to the Bedrock stand-in, throttled or not; the health
 * endpoint turning 503 when the database goes away. Runs on PGlite, or on real PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { DEFAULT_AI_MODELS } from '#core/config';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import { httpRoutes } from '#manifest';
import { AI_REGIONS, type Twin } from '../../lib/twin/twin';
import { TEMPLATE_PATH } from '../support/template-paths';
import { useTwin } from '../support/twin';

// the migrated template, not the demo one: these tests watch a first start seed and sweep for itself
const e2e = useTwin({ visibilityTimeoutSeconds: 1, databaseTemplate: TEMPLATE_PATH });
const { call } = e2e;
let twin: Twin;
const tokens: Record<'investigator' | 'admin' | 'harbor', string> = { investigator: '', admin: '', harbor: '' };

beforeAll(async () => {
  twin = e2e.twin;
  [tokens.investigator, tokens.admin, tokens.harbor] = await Promise.all([
    e2e.token('investigator'),
    e2e.token('admin'),
    e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor),
  ]);
});

test('first start seeds the demo investigation', () => {
  expect(twin.seeded).toBe(true);
});

test('first start embeds the seeded evidence (the schedules run once at start)', async () => {
  await twin.schedulesSettled();
  const db = twin.database.db;
  const statuses = await db.selectFrom('embedding_sources').select(['status']).execute();
  expect(statuses.length).toBeGreaterThan(30);
  expect(statuses.every((s) => s.status === 'embedded')).toBe(true);
  const { n } = await db
    .selectFrom('text_chunks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('embedding', 'is not', null)
    .executeTakeFirstOrThrow();
  expect(Number(n)).toBeGreaterThanOrEqual(statuses.length);
});

test('GET /api/health → 200 with every component checked', async () => {
  const res = await call('GET', '/api/health');
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('ok');
  expect(Object.keys(res.body.checks).sort()).toEqual(['database', 'generation_queue', 'quality_queue', 'storage']);
  for (const check of Object.values(res.body.checks) as { status: string }[]) expect(check.status).toBe('ok');
});

test('an investigator sees only their organization, through the handler and the database', async () => {
  const mine = await call('GET', '/api/investigations', tokens.investigator);
  expect(mine.status).toBe(200);
  expect(mine.body.investigations.map((i: { investigation_id: string }) => i.investigation_id)).toEqual([DEMO_INVESTIGATION_IDS.northwind]);
  expect(mine.body.investigations[0].evidence_count).toBeGreaterThanOrEqual(30);

  const detail = await call('GET', `/api/investigations/${DEMO_INVESTIGATION_IDS.northwind}`, tokens.investigator);
  expect(detail.status).toBe(200);
  expect(detail.body.questions.length).toBeGreaterThan(1);
  expect(detail.body.topics.length).toBeGreaterThan(1);

  // another organization's investigation is indistinguishable from a missing one
  const theirs = await call('GET', `/api/investigations/${DEMO_INVESTIGATION_IDS.northwind}`, tokens.harbor);
  expect(theirs.status).toBe(404);
  expect(theirs.body.error.code).toBe('not_found');
});

test('the authorizer: no token 401, forged token 401, wrong role 403, unknown route 404', async () => {
  expect((await call('GET', '/api/investigations')).status).toBe(401);
  const forged = tokens.investigator.slice(0, -4) + 'AAAA';
  expect((await call('GET', '/api/investigations', forged)).status).toBe(401);
  const admin = await call('GET', '/api/admin/settings', tokens.investigator);
  expect(admin.status).toBe(403);
  expect(admin.body.error.code).toBe('forbidden');
  expect((await call('GET', '/api/no-such-route', tokens.investigator)).status).toBe(404);
  expect((await call('DELETE', '/api/investigations', tokens.investigator)).status).toBe(404);
});

test('every route enforces its declared access: no token 401, an investigator on admin and cron routes 403', async () => {
  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
  for (const route of httpRoutes()) {
    const path = concrete(route.path);
    if (route.access === 'public') continue;
    expect([route.path, (await call(route.method, path)).status]).toEqual([route.path, 401]);
    if (route.access === 'admin' || route.access === 'cron') {
      expect([route.path, (await call(route.method, path, tokens.investigator)).status]).toEqual([route.path, 403]);
    }
  }
});

test('bad input is a 400 naming the field', async () => {
  const res = await call('GET', '/api/investigations/not-a-uuid', tokens.investigator);
  expect(res.status).toBe(400);
  expect(res.body.error.details).toEqual([{ path: 'investigation_id', message: 'must be a UUID' }]);
});

test('cron routes take the scheduler secret or an admin token, nothing else', async () => {
  const path = '/api/admin/cron/retention';
  expect((await call('POST', path)).status).toBe(401);
  expect((await call('POST', path, 'wrong-secret')).status).toBe(401);
  expect((await call('POST', path, tokens.investigator)).status).toBe(403);
  expect((await call('POST', path, twin.cronSecret)).status).toBe(200);
  expect((await call('POST', path, tokens.admin)).status).toBe(200);
});

test('every manifest route is served, and the OpenAPI document lists it', async () => {
  const doc = await call('GET', '/api/openapi.json');
  expect(doc.status).toBe(200);
  for (const route of httpRoutes()) {
    expect(doc.body.paths[route.path]?.[route.method.toLowerCase()]?.operationId).toBe(route.fn.id);
  }
});

test('the twin serves the API reference at /api/docs: Redoc, from the local copy, over /api/openapi.json', async () => {
  const page = await fetch(`${e2e.twin.url}/api/docs`);
  expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  const html = await page.text();
  expect(html).toContain("import { init } from '/api/docs/redoc.standalone.js'");
  expect(html).toContain("init('/api/openapi.json'");
  const script = await fetch(`${e2e.twin.url}/api/docs/redoc.standalone.js`);
  expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
  expect(await script.text()).toMatch(/export\s*\{[^}]*\binit\b[^}]*\}\s*;?\s*$/);
});

test('a queue message reaches the worker handler; one it cannot process ends in the DLQ, not lost', async () => {
  const sqs = new SQSClient(e2e.awsConfig());
  await sqs.send(new SendMessageCommand({ QueueUrl: twin.aws.queues.generation.url, MessageBody: JSON.stringify({ analysis_id: 'x' }) }));
  const deadline = Date.now() + 20_000;
  let dead: string[] = [];
  while (dead.length === 0 && Date.now() < deadline) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: twin.aws.queues.generation.dlqUrl, WaitTimeSeconds: 1 }));
    dead = (out.Messages ?? []).map((m) => m.Body ?? '');
  }
  expect(dead).toEqual([JSON.stringify({ analysis_id: 'x' })]);
}, 30_000);

test('a Converse call through the real SDK client reaches the stand-in; a throttled answer surfaces as ThrottlingException', async () => {
  const command = new ConverseCommand({
    modelId: DEFAULT_AI_MODELS.analysis,
    messages: [{ role: 'user', content: [{ text: 'Summarize the evidence.' }] }],
  });
  const primary = new BedrockRuntimeClient({ ...e2e.awsConfig(AI_REGIONS.primary), maxAttempts: 1 });
  const answer = await primary.send(command);
  expect(answer.output?.message?.content?.[0]?.text).toMatch(/^\[stand-in\]/);
  twin.bedrock.setFaults(AI_REGIONS.primary, { throttleRatio: 1 });
  try {
    await expect(primary.send(command)).rejects.toMatchObject({ name: 'ThrottlingException' });
    // the other region is unaffected: what the gateway's fallback will rely on
    const fallback = await new BedrockRuntimeClient({ ...e2e.awsConfig(AI_REGIONS.fallback), maxAttempts: 1 }).send(command);
    expect(fallback.stopReason).toBe('end_turn');
  } finally {
    twin.bedrock.clearFaults();
  }
});

test('health answers 503 when the database is unreachable', async () => {
  await twin.databaseProxy.stop();
  const res = await call('GET', '/api/health');
  expect(res.status).toBe(503);
  expect(res.body.status).toBe('unavailable');
  expect(res.body.checks.database.status).toBe('failed');
  expect(res.body.checks.storage.status).toBe('ok');
});
