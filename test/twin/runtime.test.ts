/**
 * The twin's Lambda runtime with hand-made bundles: a function sees exactly its template environment
 * plus Lambda's reserved variables, can require Node's built-ins and its own files but nothing from the
 * project, keeps module state per execution environment, runs concurrent invocations in separate
 * environments, and is ended at its timeout (the next invocation starts cold).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlanFunction } from '../../lib/twin/assembly/plan';
import { ensureBootstrap } from '../../lib/twin/assembly/bundles';
import { DEFAULT_MAX_ENVIRONMENTS, startLambdaRuntime, type LambdaRuntime, type LogLine } from '../../lib/twin/runtime/lambda';
import { loadOrCreateTls } from '../../lib/twin/aws/tls';

const HANDLERS: Record<string, string> = {
  env: 'exports.handler = async () => Object.keys(process.env).sort();',
  modules: `exports.handler = async (event) => {
    try { require(event.name); return 'loaded'; } catch (error) { return error.code + ': ' + error.message.split('\\n')[0]; }
  };`,
  state:
    'let count = 0; exports.handler = async (event) => { count += 1; await new Promise((r) => setTimeout(r, event.waitMs ?? 0)); return count; };',
  slow: "exports.handler = async (event) => { console.log('starting'); await new Promise((r) => setTimeout(r, event.ms)); return 'done'; };",
  failing: "exports.handler = async () => { throw new TypeError('bad input'); };",
  // a third parameter makes it callback-style for nodejs24.x, even async and never calling it
  callback: "exports.handler = async (event, context, callback) => 'unreachable';",
  heap: "exports.handler = async () => require('node:v8').getHeapStatistics().heap_size_limit;",
  // given at most 3 environments below
  bounded: 'exports.handler = async (event) => { await new Promise((r) => setTimeout(r, event.waitMs)); return Date.now(); };',
  network: `exports.handler = async (event) => new Promise((resolve) => {
    const socket = require('node:net').connect({ host: event.host, port: 5432 });
    const timer = setTimeout(() => { socket.destroy(); resolve('no answer'); }, 500);
    socket.once('data', (data) => { clearTimeout(timer); socket.destroy(); resolve(data.toString()); });
    socket.once('error', (error) => { clearTimeout(timer); resolve(error.code); });
  });`,
};

const fn = (id: string, timeoutSeconds = 3): PlanFunction => ({
  id,
  stack: 'test',
  logicalId: id,
  functionName: `test-${id}`,
  arn: `arn:aws:lambda:us-east-1:000000000000:function:test-${id}`,
  roleName: `role-${id}`,
  roleArn: `arn:aws:iam::000000000000:role/role-${id}`,
  entry: `functions/${id}.ts`,
  handler: 'index.handler',
  runtime: 'nodejs24.x',
  timeoutSeconds,
  memoryMb: 128,
  environment: { FUNCTION_ID: id, ONLY_THIS: 'yes' },
  inVpc: false,
  policy: [],
  managedPolicyArns: [],
  invokers: [],
  asyncInvoke: { maximumRetryAttempts: 2 },
});

let dir: string;
let runtime: LambdaRuntime;
let server: Server;
const logs: LogLine[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'twin-runtime-'));
  for (const [id, code] of Object.entries(HANDLERS)) {
    mkdirSync(join(dir, id));
    writeFileSync(join(dir, id, 'index.js'), code);
  }
  const tls = await loadOrCreateTls(join(dir, 'tls'), ['localhost']);
  server = createServer((socket) => socket.end('hello from the twin'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  runtime = startLambdaRuntime(
    [fn('env'), fn('modules'), fn('state'), fn('slow', 1), fn('failing'), fn('callback'), fn('network'), fn('heap'), fn('bounded')],
    {
      bundlesDir: dir,
      bootstrapPath: await ensureBootstrap(),
      caPem: tls.caPem,
      region: 'us-east-1',
      // the twin's DNS: a service host leads to a local server, the database (from outside the VPC) to nowhere
      routes: () => [
        { host: '*.service.amazonaws.com', to: { host: '127.0.0.1', port } },
        { host: 'db.proxy.amazonaws.com', to: 'blackhole' },
      ],
      credentials: () => ({ accessKeyId: 'ASIATEST', secretAccessKey: 'secret', sessionToken: 'token' }),
      onLog: (line) => logs.push(line),
      maxEnvironments: (f) => (f.id === 'bounded' ? 3 : DEFAULT_MAX_ENVIRONMENTS),
    },
  );
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const valueOf = async (id: string, event: unknown = {}) => {
  const outcome = await runtime.invoke(id, event);
  if (!outcome.ok) throw new Error(`${outcome.error.errorType}: ${outcome.error.errorMessage}`);
  return outcome.value;
};

test("the environment is the template's and Lambda's reserved variables, and the twin's strict answer check; nothing of the twin's process", async () => {
  process.env.SOMETHING_OF_THE_TEST_PROCESS = 'leak';
  expect(await valueOf('env')).toEqual([
    'AWS_ACCESS_KEY_ID',
    'AWS_DEFAULT_REGION',
    'AWS_EXECUTION_ENV',
    'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
    'AWS_LAMBDA_FUNCTION_NAME',
    'AWS_LAMBDA_FUNCTION_VERSION',
    'AWS_LAMBDA_INITIALIZATION_TYPE',
    'AWS_LAMBDA_LOG_GROUP_NAME',
    'AWS_LAMBDA_LOG_STREAM_NAME',
    'AWS_REGION',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'FUNCTION_ID',
    'LAMBDA_TASK_ROOT',
    'LANG',
    'ONLY_THIS',
    'RESPONSE_VALIDATION',
    'TZ',
    '_HANDLER',
    '_X_AMZN_TRACE_ID',
  ]);
});

test("the bundle can require Node's built-ins, not the project's packages", async () => {
  expect(await valueOf('modules', { name: 'node:crypto' })).toBe('loaded');
  expect(await valueOf('modules', { name: 'fauxqs' })).toBe("MODULE_NOT_FOUND: Cannot find module 'fauxqs'");
  expect(await valueOf('modules', { name: '@electric-sql/pglite' })).toBe("MODULE_NOT_FOUND: Cannot find module '@electric-sql/pglite'");
});

test('module state lives per execution environment; concurrent invocations get their own', async () => {
  const first = await runtime.invoke('state', {});
  expect(first).toMatchObject({ ok: true, value: 1, coldStart: true });
  expect(await runtime.invoke('state', {})).toMatchObject({ ok: true, value: 2, coldStart: false });
  const [a, b] = await Promise.all([runtime.invoke('state', { waitMs: 300 }), runtime.invoke('state', { waitMs: 300 })]);
  expect([a.coldStart, b.coldStart].sort()).toEqual([false, true]);
  expect(runtime.stats('state').environments).toBe(2);
});

test('a function runs at most its maxEnvironments at once; the invocations past them wait for one to be free', async () => {
  const outcomes = await Promise.all(Array.from({ length: 5 }, () => runtime.invoke('bounded', { waitMs: 400 })));
  expect(runtime.stats('bounded').environments).toBe(3);
  const ends = outcomes.map((o) => (o.ok ? Number(o.value) : Number.NaN)).sort((a, b) => a - b);
  // three at once, then the other two after them
  expect(ends[3]! - ends[0]!).toBeGreaterThanOrEqual(300);
});

test('an invocation past the timeout ends as Lambda reports it, and the next one starts cold', async () => {
  const outcome = await runtime.invoke('slow', { ms: 5_000 });
  expect(outcome).toMatchObject({
    ok: false,
    timedOut: true,
    error: { errorType: 'Sandbox.Timedout', errorMessage: expect.stringMatching(/Task timed out after 1\.00 seconds$/) },
  });
  expect(outcome.durationMs).toBeGreaterThanOrEqual(1_000);
  expect(outcome.durationMs).toBeLessThan(1_800);
  expect(logs.filter((l) => l.functionId === 'slow').map((l) => l.text.trim())).toEqual([
    'starting',
    expect.stringMatching(/Task timed out after 1\.00 seconds$/),
  ]);
  expect(await runtime.invoke('slow', { ms: 10 })).toMatchObject({ ok: true, value: 'done', coldStart: true });
  expect(runtime.stats('slow')).toMatchObject({ invocations: 2, timeouts: 1, coldStarts: 2 });
});

test("a handler's error is the invocation's error; the environment stays warm", async () => {
  expect(await runtime.invoke('failing', {})).toMatchObject({
    ok: false,
    timedOut: false,
    error: { errorType: 'TypeError', errorMessage: 'bad input' },
  });
  expect(await runtime.invoke('failing', {})).toMatchObject({ ok: false, coldStart: false });
});

test('a callback-style handler fails its init, as nodejs24.x refuses it', async () => {
  expect(await runtime.invoke('callback', {})).toMatchObject({
    ok: false,
    error: { errorType: 'Runtime.CallbackHandlerDeprecated', errorMessage: expect.stringContaining('starting with Node.js 24') },
  });
});

test("the function's network: an AWS host leads to the twin's server, an unreachable one never answers", async () => {
  expect(await valueOf('network', { host: 'sqs.service.amazonaws.com' })).toBe('hello from the twin');
  expect(await valueOf('network', { host: 'db.proxy.amazonaws.com' })).toBe('no answer');
});

test("the environment's heap is the one Lambda's Node.js runtime gives its memory, not V8's larger default", async () => {
  // what Lambda's bootstrap starts node with for a 128 MB function: old space 128 - 12, semi-spaces 12 / 2
  const lambdas = Number(
    execFileSync(
      process.execPath,
      ['--max-old-space-size=116', '--max-semi-space-size=6', '-p', "require('node:v8').getHeapStatistics().heap_size_limit"],
      {
        encoding: 'utf8',
      },
    ),
  );
  expect(await valueOf('heap')).toBe(lambdas); // 140 MB; V8's defaults in a worker gave 320 MB
});
