/**
 * The twin's API Gateway answers for the function the way an HTTP API does when the integration does
 * not: a function that fails → 500, one that runs past the integration timeout → 504, a body over
 * 10 MB → 413, each with API Gateway's `{ message }` body and, for an allowed Origin, the CORS headers.
 * Over the stage's throttle of a route it answers 429 before the authorizer and the function.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CORS } from '#manifest';
import { createGateway } from '../../lib/twin/gateway/gateway';
import type { InvokeOutcome } from '../../lib/twin/runtime/lambda';

const ORIGIN = 'http://localhost:5173';
type Handler = (event: unknown) => Promise<unknown>;
let server: Server;
let base = '';
let healthHandler: Handler;
let loginHandler: Handler;
const logged: string[] = [];
let authorizations = 0;
/** the throttles' clock: still unless a test moves it */
let clockMs = 0;
const THROTTLES = {
  // health has no setting of its own: the stage default
  default: { rateLimit: 1, burstLimit: 50 },
  routes: {
    'POST /api/auth/login': { rateLimit: 10, burstLimit: 20 },
    'POST /api/analysis/{analysis_id}/feedback': { rateLimit: 1, burstLimit: 5 },
  },
};

/** What the twin's Lambda runtime reports for a handler: its value, or the error as Lambda reports it. */
const run = async (handler: Handler, event: unknown): Promise<InvokeOutcome> => {
  try {
    return { ok: true, value: await handler(event), durationMs: 1, coldStart: false };
  } catch (error) {
    return {
      ok: false,
      timedOut: false,
      error: { errorType: (error as Error).name, errorMessage: (error as Error).message },
      durationMs: 1,
      coldStart: false,
    };
  }
};

beforeAll(async () => {
  const handlers: Record<string, () => Handler> = { health: () => healthHandler, 'auth-login': () => loginHandler };
  server = createServer(
    createGateway({
      account: '000000000000',
      api: {
        id: 'api',
        routes: [
          { routeKey: 'GET /api/health', method: 'GET', path: '/api/health', functionId: 'health', authorization: 'NONE' },
          { routeKey: 'POST /api/auth/login', method: 'POST', path: '/api/auth/login', functionId: 'auth-login', authorization: 'NONE' },
          {
            routeKey: 'POST /api/analysis/{analysis_id}/feedback',
            method: 'POST',
            path: '/api/analysis/{analysis_id}/feedback',
            functionId: 'health',
            authorization: 'JWT',
          },
        ],
        cors: {
          allowOrigins: [ORIGIN],
          allowMethods: ['OPTIONS', 'GET', 'POST'],
          allowHeaders: [...CORS.allowHeaders],
          exposeHeaders: [...CORS.exposeHeaders],
          maxAge: CORS.maxAgeSeconds,
        },
        throttles: THROTTLES,
      },
      authorize: async () => {
        authorizations++;
        throw new Error('no tokens in this test');
      },
      now: () => clockMs,
      invoke: (id, event) => run(handlers[id]!(), event),
      integrationTimeoutMs: 200,
      onRequest: (line) => logged.push(line),
    }),
  );
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
  const res = await fetch(`${base}/api/analysis/x/feedback`, {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
  });
  expect(res.status).toBe(204);
  expect(
    Object.fromEntries(
      ['allow-origin', 'allow-headers', 'expose-headers', 'max-age'].map((h) => [h, res.headers.get(`access-control-${h}`)]),
    ),
  ).toEqual({
    'allow-origin': ORIGIN,
    'allow-headers': 'authorization,content-type,idempotency-key',
    'expose-headers': 'retry-after,x-request-id,content-disposition',
    'max-age': '3600',
  });
});

test('an origin the API does not allow gets no CORS headers, as from API Gateway', async () => {
  healthHandler = async () => ({ statusCode: 200, body: '{}' });
  const res = await fetch(`${base}/api/health`, { headers: { origin: 'https://elsewhere.example' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
});

test('a function that throws: 500 Internal Server Error, the stack in the twin log', async () => {
  healthHandler = async () => {
    throw new Error('boom in the handler');
  };
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
  loginHandler = async () => {
    ran = true;
    return { statusCode: 200, body: '{}' };
  };
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: 'x'.repeat(10 * 1024 * 1024 + 1),
  }).catch(() => undefined);
  expect(res).toBeDefined();
  expect([res!.status, await res!.json()]).toEqual([413, { message: 'Request Entity Too Large' }]);
  expect(ran).toBe(false);
});

test("a malformed percent-encoding in the path: 400 Bad Request in a route's parameter, 404 where no route matches; never a 500", async () => {
  let ran = false;
  healthHandler = async () => {
    ran = true;
    return { statusCode: 200, body: '{}' };
  };
  const call = async (method: string, path: string) => {
    const res = await fetch(`${base}${path}`, { method, headers: { origin: ORIGIN } });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  for (const path of [
    '/api/analysis/%ZZ/feedback',
    '/api/analysis/%E0%A4/feedback',
    '/api/analysis/%/feedback',
    '/api/analysis/%uD800/feedback',
  ]) {
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

describe('the stage throttles (simulated time: the clock moves only when a test moves it)', () => {
  const statuses = async (count: number, path: string, init: RequestInit = {}) => {
    const replies = await Promise.all(
      Array.from({ length: count }, () =>
        fetch(`${base}${path}`, { headers: { origin: ORIGIN }, ...init }).then(async (res) => ({
          status: res.status,
          body: (await res.json().catch(() => undefined)) as unknown,
          cors: res.headers.get('access-control-allow-origin'),
        })),
      ),
    );
    return replies.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
  };
  const refillAll = () => {
    clockMs += 3_600_000;
  };

  test("over a route's own bucket: 429 Too Many Requests, with CORS headers; the function never runs; one token a tenth of a second later", async () => {
    refillAll();
    let runs = 0;
    loginHandler = async () => {
      runs++;
      return { statusCode: 401, body: '{}' };
    };
    const login = { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json' }, body: '{}' };
    expect(await statuses(30, '/api/auth/login', login)).toEqual({ 401: 20, 429: 10 });
    expect(runs).toBe(20);
    const res = await fetch(`${base}/api/auth/login`, login);
    expect([res.status, await res.json(), res.headers.get('access-control-allow-origin')]).toEqual([
      429,
      { message: 'Too Many Requests' },
      ORIGIN,
    ]);
    expect(logged.at(-1)).toMatch(/POST \/api\/auth\/login → 429/);
    clockMs += 100;
    expect(await statuses(3, '/api/auth/login', login)).toEqual({ 401: 1, 429: 2 });
    expect(runs).toBe(21);
  });

  test('a throttled route with an authorizer: the authorizer is not consulted', async () => {
    refillAll();
    authorizations = 0;
    expect(await statuses(8, '/api/analysis/a/feedback', { method: 'POST', headers: { authorization: 'Bearer not-a-jwt' } })).toEqual({
      401: 5,
      429: 3,
    });
    expect(authorizations).toBe(5);
  });

  test("each route has its own bucket: a flooded route leaves the others theirs; a route without its own setting gets the stage default's", async () => {
    refillAll();
    healthHandler = async () => ({ statusCode: 200, body: '{}' });
    await statuses(25, '/api/auth/login', { method: 'POST', body: '{}' });
    expect(await statuses(55, '/api/health')).toEqual({ 200: 50, 429: 5 });
  });

  test("requests no route takes and CORS preflights draw on one bucket with the stage default's figures", async () => {
    refillAll();
    expect(await statuses(40, '/api/nowhere')).toEqual({ 404: 40 });
    const preflight = { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } };
    expect(await statuses(15, '/api/analysis/a/feedback', preflight)).toEqual({ 204: 10, 429: 5 });
    expect(await statuses(1, '/api/nowhere')).toEqual({ 429: 1 });
  });
});
