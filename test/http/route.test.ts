/**
 * The route wrapper on its own: the manifest's access level is enforced inside every handler too
 * (defence in depth behind the API Gateway authorizer), bodies are parsed, errors keep their shape.
 */
import type { Context } from 'aws-lambda';
import { groupsOf } from '#core/auth/caller';
import * as z from 'zod';
import { conflict } from '#core/errors';
import { defineRoute, uuid, type RouteContract } from '#core/contract';
import { databaseTimeLeft } from '#core/db/deadline';
import { route, type HttpEvent, type RouteInput, type RouteOptions } from '#core/http/route';
import { setEnv } from '../support/config-env';

const event = (routeKey: string, claims?: Record<string, string>, body?: string): HttpEvent =>
  ({
    version: '2.0',
    routeKey,
    rawPath: '/',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    ...(body !== undefined && { body }),
    requestContext: { http: { method: 'GET' }, ...(claims && { authorizer: { jwt: { claims, scopes: [] } } }) },
  }) as unknown as HttpEvent;

const org = { sub: 'u1', organization_id: '8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9c01' };
/** A contract that takes any body and answers anything, on the event's own route key. */
const loose = (routeKey: string) =>
  ({ route: routeKey as RouteContract['route'], body: z.unknown(), response: z.unknown() }) satisfies RouteContract;
type Loose = ReturnType<typeof loose>;
/** A handler for whichever manifest route the event names. */
const on =
  (impl: (input: RouteInput<Loose>) => Promise<{ status?: number; body: unknown }>, options?: RouteOptions) =>
  (e: HttpEvent, context: Context) =>
    route(loose(e.routeKey), impl, options)(e, context);
const echo = on(async ({ caller, body }) => ({ body: { caller, body } }));
const run = async (e: HttpEvent) => {
  const result = await echo(e, {} as Context);
  return { status: result.statusCode, body: JSON.parse(result.body || 'null') };
};

describe('a contract is checked against the manifest at cold start', () => {
  const answer = async () => ({ body: null });

  test('a route the manifest does not have fails the cold start', () => {
    expect(() => route(loose('GET /api/nowhere'), answer)).toThrow(/'GET \/api\/nowhere' is not in the service manifest/);
  });

  test("a function bound to another function's route fails the cold start", () => {
    setEnv({ FUNCTION_ID: 'analysis-get' });
    try {
      expect(() => route(loose('GET /api/health'), answer)).toThrow(
        /function 'analysis-get' is bound to the contract of 'GET \/api\/health', which the manifest gives to 'health'/,
      );
      expect(() => route(loose('GET /api/analysis/{analysis_id}'), answer)).not.toThrow();
    } finally {
      setEnv({ FUNCTION_ID: undefined });
    }
  });

  test('an event for another route is a 500, and the implementation never runs', async () => {
    let ran = false;
    const handler = route(loose('GET /api/health'), async () => {
      ran = true;
      return { body: null };
    });
    expect((await handler(event('GET /api/investigations', org), {} as Context)).statusCode).toBe(500);
    expect(ran).toBe(false);
  });
});

describe('the implementation receives every declared input parsed, and its answer is checked against the contract', () => {
  const contract = defineRoute({
    route: 'GET /api/analysis/{analysis_id}',
    params: z.object({ analysis_id: uuid }),
    query: z.object({ limit: z.coerce.number().int().default(5) }),
    headers: z.object({ 'idempotency-key': z.string().optional() }),
    response: z.object({ analysis_id: uuid, limit: z.number(), key: z.string().nullable() }),
  });
  const id = '0b9f8f2e-7a43-4c36-9d7e-3f2b8a1c5d60';
  const request = (params: Record<string, string>, query: Record<string, string> = {}) =>
    ({
      ...event(contract.route, org),
      pathParameters: params,
      queryStringParameters: query,
      headers: { 'Idempotency-Key': 'k-1' },
    }) as HttpEvent;

  test('typed and parsed: the path, the query with its default, the headers by lower-case name', async () => {
    const handler = route(contract, async ({ params, query, headers }) => ({
      body: { analysis_id: params.analysis_id, limit: query.limit, key: headers['idempotency-key'] ?? null },
    }));
    const res = await handler(request({ analysis_id: id }), {} as Context);
    expect([res.statusCode, JSON.parse(res.body!)]).toEqual([200, { analysis_id: id, limit: 5, key: 'k-1' }]);
    const bad = await handler(request({ analysis_id: 'nope' }, { limit: 'x' }), {} as Context);
    expect([bad.statusCode, JSON.parse(bad.body!).error.details]).toEqual([400, [{ path: 'analysis_id', message: 'must be a UUID' }]]);
  });

  test('an answer that breaks the response schema is a 500 naming the field (RESPONSE_VALIDATION=strict, as in the twin and the tests)', async () => {
    // the cast stands for an implementation whose types drifted from what it really answers
    const handler = route(contract, async () => ({ body: { analysis_id: id, limit: 'five' as unknown as number, key: null } }));
    const res = await handler(request({ analysis_id: id }), {} as Context);
    expect(res.statusCode).toBe(500);
    expect(JSON.parse(res.body!).error).toMatchObject({ code: 'response_contract_violation', details: [{ path: 'limit' }] });
  });
});

test('investigator routes need claims and an organization', async () => {
  expect((await run(event('GET /api/investigations'))).status).toBe(401);
  expect((await run(event('GET /api/investigations', { sub: 'u1' }))).status).toBe(403);
  const ok = await run(event('GET /api/investigations', org));
  expect(ok.status).toBe(200);
  expect(ok.body.caller).toEqual({ subject: 'u1', email: undefined, role: 'investigator', organizationId: org.organization_id });
});

const operator = { sub: 'op1' };

test('admin routes need the admin group, in either claim rendering, and no organization', async () => {
  expect((await run(event('GET /api/admin/users', org))).status).toBe(403);
  expect((await run(event('GET /api/admin/users', { ...operator, 'cognito:groups': '[investigator]' }))).status).toBe(403);
  expect((await run(event('GET /api/admin/users', { ...operator, 'cognito:groups': '[ops admin]' }))).status).toBe(200);
  // a customer account put into the admin group reaches nothing service-wide
  const both = await run(event('GET /api/admin/users', { ...org, 'cognito:groups': '[admin]' }));
  expect(both.status).toBe(403);
  expect(both.body.error.message).toMatch(/belongs to an organization.*operators/);
  expect(groupsOf(['admin'])).toEqual(['admin']);
  expect(groupsOf('[a b]')).toEqual(['a', 'b']);
  expect(groupsOf(undefined)).toEqual([]);
});

test('a body that is not JSON is a 400 and the implementation never runs', async () => {
  let ran = false;
  const handler = on(async () => {
    ran = true;
    return { body: null };
  });
  const result = await handler(event('GET /api/health', undefined, '{oops'), {} as Context);
  expect(result.statusCode).toBe(400);
  expect(JSON.parse(result.body!)).toEqual({ error: { code: 'bad_request', message: 'The request body is not valid JSON.' } });
  expect(ran).toBe(false);
});

test('typed errors keep their status and details; anything else is a 500 that reveals nothing', async () => {
  const typed = await on(async () => {
    throw conflict('Gate A first.', { gate: 'A' });
  })(event('GET /api/health'), {} as Context);
  expect(typed.statusCode).toBe(409);
  expect(JSON.parse(typed.body!)).toEqual({ error: { code: 'conflict', message: 'Gate A first.', details: { gate: 'A' } } });
  const crash = await on(async () => {
    throw new Error('password=hunter2 at db.internal');
  })(event('GET /api/health'), {} as Context);
  expect(crash.statusCode).toBe(500);
  expect(crash.body).not.toContain('hunter2');
  expect(JSON.parse(crash.body!).error.code).toBe('internal_error');
});

test('every answer, success or error, carries the gateway request id as x-request-id', async () => {
  const withId = (e: HttpEvent): HttpEvent => ({ ...e, requestContext: { ...e.requestContext, requestId: 'req-7f3a' } });
  const ok = await echo(withId(event('GET /api/health')), {} as Context);
  const refused = await echo(withId(event('GET /api/investigations')), {} as Context);
  const crash = await on(async () => {
    throw new Error('boom');
  })(withId(event('GET /api/health')), {} as Context);
  expect([ok, refused, crash].map((r) => [r.statusCode, r.headers?.['x-request-id']])).toEqual([
    [200, 'req-7f3a'],
    [401, 'req-7f3a'],
    [500, 'req-7f3a'],
  ]);
  expect(ok.headers).toMatchObject({ 'content-type': 'application/json', 'cache-control': 'no-store' });
});

describe('a body must be JSON (415 otherwise): a cross-site form post cannot pass as one', () => {
  const withType = (contentType: string | undefined, body = '{"a":1}'): HttpEvent => {
    const e = event('GET /api/health', undefined, body);
    return { ...e, headers: contentType === undefined ? {} : { 'content-type': contentType } };
  };

  test.each([
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonp',
    'application/xml',
    '',
  ])('%j is refused with 415 unsupported_media_type, and the implementation never runs', async (contentType) => {
    let ran = false;
    const handler = on(async () => {
      ran = true;
      return { body: null };
    });
    const result = await handler(withType(contentType), {} as Context);
    expect(result.statusCode).toBe(415);
    expect(JSON.parse(result.body!).error.code).toBe('unsupported_media_type');
    expect(ran).toBe(false);
  });

  test.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/merge-patch+json',
    'application/vnd.api+json',
    undefined,
  ])('%j is read as JSON', async (contentType) => {
    const result = await run(withType(contentType));
    expect(result).toEqual({ status: 200, body: { body: { a: 1 } } });
  });

  test('a request without a body needs no content type', async () => {
    expect((await run(withType('text/plain', ''))).status).toBe(200);
  });
});

test('a route that audits every attempt hears of each refused input before its 4xx goes back, with the JSON body when there was one', async () => {
  const refusals: unknown[] = [];
  const handler = route(
    defineRoute({ route: 'GET /api/health', body: z.object({ email: z.string() }), response: z.unknown() }),
    async ({ body }) => ({ body }),
    {
      refused: async ({ content }, refusal) => {
        refusals.push([refusal.kind, refusal.code, content]);
      },
    },
  );
  const form = {
    ...event('GET /api/health', undefined, 'email=a%40b.example&password=x'),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
  expect((await handler(form, {} as Context)).statusCode).toBe(415);
  expect((await handler(event('GET /api/health', undefined, '{oops'), {} as Context)).statusCode).toBe(400);
  expect((await handler(event('GET /api/health', undefined, '{"email":7}'), {} as Context)).statusCode).toBe(400);
  expect((await handler(event('GET /api/health', undefined, '{"email":"a@b.example"}'), {} as Context)).statusCode).toBe(200);
  expect(refusals).toEqual([
    ['unsupported', 'unsupported_media_type', undefined],
    ['invalid', 'bad_request', undefined],
    ['invalid', 'validation_failed', { email: 7 }],
  ]);
});

describe('query and path parameters keep the string rule on every route, also one that reads neither', () => {
  const withQuery = (query: Record<string, string>) => ({ ...event('GET /api/health'), queryStringParameters: query });

  test('a NUL or an unpaired surrogate is a 400 naming the parameter, and the implementation never runs', async () => {
    let ran = false;
    const handler = on(async () => {
      ran = true;
      return { body: null };
    });
    const nul = await handler(withQuery({ note: 'a\u0000b' }), {} as Context);
    expect([nul.statusCode, JSON.parse(nul.body!).error.details]).toEqual([
      400,
      [{ path: 'query.note', message: expect.stringMatching(/NUL/) }],
    ]);
    // a name the client made up is not echoed back (nor into the audit trail) unless it is plain
    const odd = await handler(withQuery({ 'x\udc00y': '1' }), {} as Context);
    expect(JSON.parse(odd.body!).error.details).toEqual([{ path: 'query', message: expect.stringMatching(/field names/) }]);
    expect((await handler({ ...event('GET /api/health'), pathParameters: { id: '\ud800' } }, {} as Context)).statusCode).toBe(400);
    expect(ran).toBe(false);
  });

  test('a route that audits every attempt hears of the refusal, with the JSON body the request carried', async () => {
    const seen: unknown[] = [];
    const handler = on(async ({ body }) => ({ body }), {
      refused: async ({ content }) => {
        seen.push(content);
      },
    });
    const res = await handler({ ...withQuery({ note: 'a\u0000b' }), body: '{"email":"a@b.example"}' }, {} as Context);
    expect([res.statusCode, JSON.parse(res.body!).error.code]).toEqual([400, 'validation_failed']);
    expect(seen).toEqual([{ email: 'a@b.example' }]);
  });
});

test("the implementation's statements are bounded by the function's remaining time, less a second to answer in (db/deadline.ts)", async () => {
  const handler = on(async () => ({ body: { left: databaseTimeLeft() ?? null } }));
  const within = await handler(event('GET /api/health'), { getRemainingTimeInMillis: () => 4_000 } as Context);
  const { left } = JSON.parse(within.body!);
  expect(left).toBeGreaterThan(2_800);
  expect(left).toBeLessThanOrEqual(3_000);
  // outside Lambda (a test calling the handler, a CLI) nothing bounds them
  expect(JSON.parse((await handler(event('GET /api/health'), {} as Context)).body!)).toEqual({ left: null });
});
