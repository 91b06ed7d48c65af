/** The OpenAPI document: one operation per manifest route, with its contract's statuses and schemas. */
import { httpRoutes } from '../../lib/manifest';
import { openApiDocument } from '../../layers/core/http/openapi';

const doc = openApiDocument();
const operation = (method: string, path: string) => (doc.paths[path] as Record<string, { responses: Record<string, { description: string; content?: unknown }> }>)[method];

test('every route is an operation; success and route-specific statuses come from the contract', () => {
  for (const route of httpRoutes()) expect(operation(route.method.toLowerCase(), route.path)).toBeDefined();

  const feedback = operation('post', '/api/analysis/{analysis_id}/feedback')!.responses;
  expect(Object.keys(feedback).sort()).toEqual(['201', '400', '401', '403', '404', '409', '429', '503']);
  expect(feedback['201']!.content).toBeDefined();
  expect(feedback['409']!.description).toMatch(/both gates/);
  expect(Object.keys(operation('post', '/api/analysis')!.responses)).toContain('202');

  const view = operation('get', '/api/storage/view')!.responses;
  expect(view['302']).toEqual({ description: expect.stringMatching(/presigned/) });
  expect(Object.keys(operation('post', '/api/background/extract-text')!.responses)).toEqual(expect.arrayContaining(['415', '422']));
});

test('429 is documented exactly where the rate limiter runs (not on health or the document itself)', () => {
  expect(operation('get', '/api/analysis/{analysis_id}')!.responses).toHaveProperty('429');
  expect(operation('post', '/api/auth/login')!.responses).toHaveProperty('429');
  expect(operation('get', '/api/health')!.responses).not.toHaveProperty('429');
  expect(operation('get', '/api/openapi.json')!.responses).not.toHaveProperty('429');
});
