/**
 * The twin's API Gateway answers for the function the way an HTTP API does when the integration does
 * not: a function that fails → 500, one that runs past the integration timeout → 504, a body over
 * 10 MB → 413, each with API Gateway's `{ message }` body and, for an allowed Origin, the CORS headers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CORS } from '../../lib/manifest';
import { createGateway } from '../../lib/twin/gateway';
import type { InvokeOutcome } from '../../lib/twin/runtime/lambda';

const ORIGIN = 'http://localhost:5173';
type Handler = (event: unknown) => Promise<unknown>;
let server: Server;
let base = '';
let healthHandler: Handler;
let loginHandler: Handler;
const logged: string[] = [];

/** What the twin's Lambda runtime reports for a handler: its value, or the error as Lambda reports it. */
const run = async (handler: Handler, event: unknown): Promise<InvokeOutcome> => {
  try {
    return { ok: true, value: await handler(event), durationMs: 1, coldStart: false };
  } catch (error) {
    return { ok: false, timedOut: false, error: { errorType: (error as Error).name, errorMessage: (error as Error).message }, durationMs: 1, coldStart: false };
  }
};

beforeAll(async () => {
  const handlers: Record<string, () => Handler> = { health: () => healthHandler, 'auth-login': () => loginHandler };
  server = createServer(createGateway({
    account: '000000000000',
    api: {
      id: 'api',
      routes: [
        { routeKey: 'GET /api/health', method: 'GET', path: '/api/health', functionId: 'health', authorization: 'NONE' },
        { routeKey: 'POST /api/auth/login', method: 'POST', path: '/api/auth/login', functionId: 'auth-login', authorization: 'NONE' },
        { routeKey: 'POST /api/analysis/{analysis_id}/feedback', method: 'POST', path: '/api/analysis/{analysis_id}/feedback', functionId: 'health', authorization: 'JWT' },
      ],
      cors: { allowOrigins: [ORIGIN], allowMethods: ['OPTIONS', 'GET', 'POST'], allowHeaders: [...CORS.allowHeaders], exposeHeaders: [...CORS.exposeHeaders], maxAge: CORS.maxAgeSeconds },
    },
    authorize: async () => { throw new Error('no tokens in this test'); },
    invoke: (id, event) => run(handlers[id]!(), event),
    integrationTimeoutMs: 200,
    onRequest: (line) => logged.push(line),
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const get = async () => {
  const res = await fetch(`${base}/api/health`, { headers: { origin: ORIGIN } });
  return { status: res.status, body: await res.json(), cors: res.headers.get('access-control-allow-origin') };
};

test('a function that answers in time is passed through, with the gateway request id it was given', async () => {
  let given = '';
  healthHandler = async (event) => {
    given = (event as { requestContext: { requestId: string } }).requestContext.requestId;
    return { statusCode: 200, body: JSON.stringify({ status: 'ok' }) };
  };
  const res = await fetch(`${base}/api/health`, { headers: { origin: ORIGIN } });
  expect([res.status, await res.json(), res.headers.get('access-control-allow-origin')]).toEqual([200, { status: 'ok' }, ORIGIN]);
  expect(res.headers.get('apigw-requestid')).toBe(given);
  expect(given).toMatch(/^[0-9a-f-]{36}$/);
});

test('a preflight allows the headers the SPA sends and exposes the ones it reads, as the deployed API does', async () => {
  const res = await fetch(`${base}/api/analysis/x/feedback`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
  expect(res.status).toBe(204);
  expect(Object.fromEntries(['allow-origin', 'allow-headers', 'expose-headers', 'max-age'].map((h) => [h, res.headers.get(`access-control-${h}`)]))).toEqual({
    'allow-origin': ORIGIN, 'allow-headers': 'authorization,content-type,idempotency-key', 'expose-headers': 'retry-after,x-request-id', 'max-age': '3600',
  });
});

test('an origin the API does not allow gets no CORS headers, as from API Gateway', async () => {
  healthHandler = async () => ({ statusCode: 200, body: '{}' });
  const res = await fetch(`${base}/api/health`, { headers: { origin: 'https://elsewhere.example' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
});

test('a function that throws: 500 Internal Server Error, the stack in the twin log', async () => {
  healthHandler = async () => { throw new Error('boom in the handler'); };
  expect(await get()).toEqual({ status: 500, body: { message: 'Internal Server Error' }, cors: ORIGIN });
  expect(logged.at(-1)).toMatch(/GET \/api\/health → 500: health: Error: boom in the handler/);
});

test('a function past the integration timeout: 504 Gateway Timeout at the timeout, not when it ends', async () => {
  healthHandler = () => new Promise((resolve) => setTimeout(() => resolve({ statusCode: 200, body: '{}' }), 2_000));
  const started = Date.now();
  expect(await get()).toEqual({ status: 504, body: { message: 'Gateway Timeout' }, cors: ORIGIN });
  expect(Date.now() - started).toBeLessThan(1_500);
  expect(logged.at(-1)).toMatch(/GET \/api\/health → 504: .*health ran past the gateway's 200 ms/);
});

test('a body over 10 MB: 413 and the function never runs', async () => {
  let ran = false;
  loginHandler = async () => { ran = true; return { statusCode: 200, body: '{}' }; };
  const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(10 * 1024 * 1024 + 1) })
    .catch(() => undefined);
  expect(res).toBeDefined();
  expect([res!.status, await res!.json()]).toEqual([413, { message: 'Request Entity Too Large' }]);
  expect(ran).toBe(false);
});

test('a malformed percent-encoding in the path: 400 Bad Request in a route\'s parameter, 404 where no route matches; never a 500', async () => {
  let ran = false;
  healthHandler = async () => { ran = true; return { statusCode: 200, body: '{}' }; };
  const call = async (method: string, path: string) => {
    const res = await fetch(`${base}${path}`, { method, headers: { origin: ORIGIN } });
    return { status: res.status, body: await res.json() as unknown };
  };
  for (const path of ['/api/analysis/%ZZ/feedback', '/api/analysis/%E0%A4/feedback', '/api/analysis/%/feedback', '/api/analysis/%uD800/feedback']) {
    expect(await call('POST', path)).toEqual({ status: 400, body: { message: 'Bad Request' } });
  }
  for (const path of ['/api/%ZZ', '/api/health%', '/api/he%ZZalth', '/%E0%A4/analysis/x/feedback']) {
    expect(await call('GET', path)).toEqual({ status: 404, body: { message: 'Not Found' } });
  }
  expect(ran).toBe(false);
  expect(logged.at(-5)).toMatch(/POST \/api\/analysis\/%uD800\/feedback → 400: .*malformed percent-encoding/);
  // well-formed encodings are decoded as before
  expect((await call('GET', '/api/%68ealth')).status).toBe(200);
  expect(ran).toBe(true);
});
