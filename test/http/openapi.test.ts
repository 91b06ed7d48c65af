/**
 * The OpenAPI document: one operation per manifest route, with its contract's statuses and schemas as
 * named components, every header and every answer API Gateway gives itself, and examples that the
 * contracts accept.
 */
import { httpRoutes } from '#manifest';
import { contractFor } from '#core/http/contracts';
import { openApiDocument } from '#core/http/openapi';
import { OPENAPI_EXAMPLES } from '#core/http/openapi-examples';

interface Answer {
  description: string;
  content?: Record<string, { schema: Record<string, unknown>; example?: unknown }>;
  headers?: Record<string, unknown>;
}
interface Operation {
  tags: string[];
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, Answer>;
}

const doc = openApiDocument();
const operation = (method: string, path: string) => (doc.paths[path] as Record<string, Operation>)[method]!;
const schemaOf = (answer: Answer) => answer.content?.['application/json']?.schema;

test('every route is an operation; success and route-specific statuses come from the contract', () => {
  for (const route of httpRoutes()) expect(operation(route.method.toLowerCase(), route.path)).toBeDefined();

  const feedback = operation('post', '/api/analysis/{analysis_id}/feedback').responses;
  expect(Object.keys(feedback).sort()).toEqual(['200', '201', '400', '401', '403', '404', '409', '413', '415', '429', '500', '503', '504']);
  expect(schemaOf(feedback['201']!)).toEqual({ $ref: '#/components/schemas/AnalysisFeedbackCreateResponse' });
  expect(schemaOf(feedback['200']!)).toEqual(schemaOf(feedback['201']!)); // a replayed submit answers the first result again
  expect(feedback['409']!.description).toMatch(/both gates/);
  expect(Object.keys(operation('post', '/api/analysis').responses)).toContain('202');
  expect(Object.keys(operation('post', '/api/auth/forgot-password').responses)).toEqual(expect.arrayContaining(['200', '202']));

  const view = operation('get', '/api/storage/view').responses;
  expect(view['302']).toMatchObject({ description: expect.stringMatching(/presigned/), headers: { Location: expect.anything() } });
  expect(Object.keys(operation('post', '/api/background/extract-text').responses)).toEqual(expect.arrayContaining(['415', '422']));
});

test('shared shapes are named components that operations refer to, so a generated client names them', () => {
  const schemas = doc.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
  for (const name of [
    'Analysis',
    'AnalysisDetail',
    'AnalysisAnswer',
    'RetrievalChunk',
    'Investigation',
    'FeedbackRecord',
    'ApiError',
    'GatewayMessage',
    'AnalysisRequest',
  ]) {
    expect(schemas).toHaveProperty(name);
  }
  expect(schemaOf(operation('get', '/api/analysis/{analysis_id}').responses['200']!)).toEqual({
    $ref: '#/components/schemas/AnalysisDetail',
  });
  expect(operation('post', '/api/analysis').requestBody!.content['application/json']!.schema).toEqual({
    $ref: '#/components/schemas/AnalysisRequest',
  });
  expect(operation('post', '/api/analysis/assess').requestBody!.content['application/json']!.schema).toEqual({
    $ref: '#/components/schemas/AnalysisRequest',
  });
  expect(JSON.stringify(schemas.AnalysisList ?? schemas.AnalysisListResponse)).toContain('"$ref":"#/components/schemas/Analysis"');
  expect(JSON.stringify(schemas.AnalysisRetrievalResponse)).toContain('"$ref":"#/components/schemas/RetrievalChunk"');
  // every $ref resolves
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(schemas|headers)\/([^"]+)"/g)];
  for (const [, kind, name] of refs) expect((doc.components as Record<string, Record<string, unknown>>)[kind!]).toHaveProperty(name!);
});

test("headers: x-request-id on the service's answers, Location on every create, Retry-After on 429 and 503, Idempotency-Key in", () => {
  for (const route of httpRoutes()) {
    const op = operation(route.method.toLowerCase(), route.path);
    const contract = contractFor(`${route.method} ${route.path}`);
    const success = op.responses[contract.status ?? 200]!;
    expect(success.headers).toHaveProperty('x-request-id');
    if ((contract.status ?? 200) === 201 || (contract.status ?? 200) === 202)
      expect([route.fn.id, success.headers]).toEqual([route.fn.id, expect.objectContaining({ Location: expect.anything() })]);
    if (op.responses[503]) expect(op.responses[503].headers).toHaveProperty('Retry-After');
  }
  expect(operation('get', '/api/analysis/{analysis_id}').responses['429']!.headers).toHaveProperty('Retry-After');
  expect(operation('post', '/api/analysis/{analysis_id}/feedback').parameters).toContainEqual(
    expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
  );
  expect(doc.components.headers).toHaveProperty('Location');
});

test("what API Gateway answers itself is declared in its own shape: the authorizer's 401, 413, throttled 429, 500, 504", () => {
  const gateway = { $ref: '#/components/schemas/GatewayMessage' };
  const get = operation('get', '/api/analysis/{analysis_id}').responses;
  expect(schemaOf(get['401']!)).toEqual({ oneOf: [{ $ref: '#/components/schemas/ApiError' }, gateway] });
  expect(schemaOf(get['413']!)).toEqual(gateway);
  expect(schemaOf(get['504']!)).toEqual(gateway);
  // health is exempt from the service's limiter: only the gateway throttles it
  expect(schemaOf(operation('get', '/api/health').responses['429']!)).toEqual(gateway);
  expect(schemaOf(operation('post', '/api/auth/login').responses['429']!)).toEqual({
    oneOf: [{ $ref: '#/components/schemas/ApiError' }, gateway],
  });
});

test('servers, tags per area, and every operation in exactly one declared tag', () => {
  expect(doc.servers.map((s) => s.url)).toEqual(['http://{host}:{port}', 'https://{apiId}.execute-api.{region}.amazonaws.com']);
  const tags = new Set(doc.tags.map((t) => t.name));
  for (const route of httpRoutes()) {
    const { tags: own } = operation(route.method.toLowerCase(), route.path);
    expect(own).toHaveLength(1);
    expect(tags.has(own[0]!)).toBe(true);
  }
  expect(operation('get', '/api/admin/users').tags).toEqual(['Administration']);
  expect(operation('post', '/api/admin/cron/retention').tags).toEqual(['Schedules']);
  expect(operation('get', '/api/analysis/{analysis_id}/feedback').tags).toEqual(['Feedback']);
});

test("each example is what the route's contract accepts (request) or answers (response), and is in the document", () => {
  expect(Object.keys(OPENAPI_EXAMPLES).length).toBeGreaterThanOrEqual(5);
  for (const [id, { request, response }] of Object.entries(OPENAPI_EXAMPLES)) {
    const route = httpRoutes().find((r) => r.fn.id === id)!;
    const contract = contractFor(`${route.method} ${route.path}`);
    const op = operation(route.method.toLowerCase(), route.path);
    if (request !== undefined) {
      expect([id, contract.body!.safeParse(request).success]).toEqual([id, true]);
      expect((op.requestBody!.content['application/json'] as { example?: unknown }).example).toEqual(request);
    }
    if (response !== undefined) {
      expect([id, contract.response!.safeParse(response).error?.issues]).toEqual([id, undefined]);
      expect(op.responses[contract.status ?? 200]!.content!['application/json']!.example).toEqual(response);
    }
  }
});

test("429 from the service's limiter is documented exactly where it runs (not on health or the document itself)", () => {
  const limiter = (method: string, path: string) => JSON.stringify(operation(method, path).responses['429']).includes('ApiError');
  expect(limiter('get', '/api/analysis/{analysis_id}')).toBe(true);
  expect(limiter('post', '/api/auth/login')).toBe(true);
  expect(limiter('get', '/api/health')).toBe(false);
  expect(limiter('get', '/api/openapi.json')).toBe(false);
});
