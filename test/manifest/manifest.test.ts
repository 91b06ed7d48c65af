/**
 * The service manifest against the product: every route of the spec's endpoint tables and of the
 * design's API contract is deployed, with the access the spec implies. The routes are listed here, and
 * checked in every checkout against the tables' copy the repository keeps (endpoint-tables.md); when
 * ../shared is beside the checkout (as in CI) that copy is also checked against SPEC.md and DESIGN.md
 * themselves, so a route added there fails this test until the copy and the manifest have it. Without
 * ../shared that last check shows as skipped, not passed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  functions,
  HTTP_API_INTEGRATION_TIMEOUT_SECONDS,
  httpRoutes,
  rateToMs,
  visibilityTimeoutSeconds,
  queues,
  type QueueName,
} from '#manifest';
import { PROJECT_ROOT } from '../../lib/paths';
import { SWEEP_BUDGET, timeBudgetFor } from '#core/embeddings/job';

/** SPEC.md "Endpoints" tables; `?` where the spec leaves the method open. */
const SPEC_ROUTES = [
  'POST /api/analysis/assess',
  'POST /api/analysis/{analysis_id}/quality-check',
  'GET /api/analysis/{analysis_id}/quality-status',
  'GET /api/analysis/{analysis_id}/retrieval',
  'POST /api/analysis/{analysis_id}/feedback',
  'GET /api/analysis/{analysis_id}/feedback',
  'GET /api/analysis/feedback-metrics',
  'GET /api/admin/prompts/history',
  'POST /api/admin/prompts/history',
  'GET /api/admin/settings',
  'PUT /api/admin/settings',
  'GET /api/admin/queue-stats',
  'GET /api/admin/audit-health',
  'GET /api/admin/users',
  'GET /api/admin/jobs/status',
  '? /api/admin/cron/embedding-sweeper',
  'GET /api/health',
  '? /api/storage/view',
  '? /api/background/extract-text',
];

/** DESIGN.md "API contract for what the spec leaves open". */
const DESIGN_ROUTES = [
  'GET /api/investigations',
  'GET /api/investigations/{investigation_id}',
  'POST /api/analysis',
  'GET /api/analysis',
  'GET /api/analysis/{analysis_id}',
  'POST /api/analysis/{analysis_id}/engagement',
  'POST /api/admin/prompts',
  'PATCH /api/admin/prompts/{prompt_type}',
  'POST /api/admin/cron/embedding-sweeper',
  'POST /api/admin/cron/retention',
  'POST /api/auth/login',
  'POST /api/auth/webauthn/authenticate/verify',
  'POST /api/auth/forgot-password',
  'POST /api/webhooks/payment',
];

const tableRoutes = (markdown: string): string[] =>
  markdown.split('\n').flatMap((line) => {
    const m = /^\|\s*(GET|POST|PUT|PATCH|DELETE|\?)\s*\|\s*(\/api\/[^|]+?)\s*\|/.exec(line);
    return m ? m[2]!.split(/,\s*/).map((path) => `${m[1]} ${path.trim().split('?')[0]}`) : [];
  });

/** The tables' copy in the repository, by the document it was copied from. */
const keptTables = (): Record<'SPEC.md' | 'DESIGN.md', string> => {
  const [, spec, design] = readFileSync(join(__dirname, 'endpoint-tables.md'), 'utf8').split(/^## (?:SPEC|DESIGN)\.md$/m);
  return { 'SPEC.md': spec!, 'DESIGN.md': design! };
};

const SHARED = join(PROJECT_ROOT, '..', 'shared');
const sharedPresent = existsSync(join(SHARED, 'SPEC.md')) && existsSync(join(SHARED, 'DESIGN.md'));

const deployed = httpRoutes();
const has = (route: string) => {
  const [method, path] = route.split(' ') as [string, string];
  return deployed.some((r) => r.path === path && (method === '?' || r.method === method));
};

test.each([...SPEC_ROUTES, ...DESIGN_ROUTES])('%s is in the manifest', (route) => {
  expect(has(route)).toBe(true);
});

test.each([
  ['SPEC.md', SPEC_ROUTES],
  ['DESIGN.md', DESIGN_ROUTES],
] as const)("the route list matches the repository's copy of %s's table", (doc, routes) => {
  expect(new Set(tableRoutes(keptTables()[doc]))).toEqual(new Set(routes));
});

test('the table parser reads a row as the spec writes it: several paths, a query string, a method left open', () => {
  const table = [
    '| Method | Path | Purpose |',
    '| ------ | ---- | ------- |',
    '| POST | /api/admin/cron/a, /api/admin/cron/b | run a sweep now |',
    '| GET | /api/analysis?investigation_id= | list |',
    '| ? | /api/storage/view | proxy |',
    'GET /api/not-a-row',
  ].join('\n');
  expect(tableRoutes(table)).toEqual(['POST /api/admin/cron/a', 'POST /api/admin/cron/b', 'GET /api/analysis', '? /api/storage/view']);
});

(sharedPresent ? test.each : test.skip.each)([['SPEC.md'], ['DESIGN.md']] as const)(
  "the repository's copy matches %s in ../shared (skipped where ../shared is not beside the checkout)",
  (doc) => {
    expect(new Set(tableRoutes(readFileSync(join(SHARED, doc), 'utf8')))).toEqual(new Set(tableRoutes(keptTables()[doc])));
  },
);

test('no route is declared twice, and every id is unique', () => {
  const keys = deployed.map((r) => `${r.method} ${r.path}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(new Set(functions.map((f) => f.id)).size).toBe(functions.length);
});

test('access follows the spec: /api/admin is admin (cron routes take the scheduler bearer), health and sign-in are public', () => {
  for (const r of deployed) {
    if (r.path.startsWith('/api/admin/cron/')) expect(r.access).toBe('cron');
    else if (r.path.startsWith('/api/admin/')) expect(r.access).toBe('admin');
    else if (
      r.path.startsWith('/api/auth/') ||
      r.path === '/api/health' ||
      r.path === '/api/openapi.json' ||
      r.path.startsWith('/api/webhooks/')
    ) {
      expect(r.access).toBe('public');
    } else expect(r.access).toBe('investigator');
  }
});

test('the four design-only analysis types have no route or function', () => {
  const text = JSON.stringify(functions).toLowerCase();
  for (const word of ['comparative', 'timeline', 'credibility', 'risk']) expect(text).not.toContain(word);
});

test('every entry file exists, and every cron route is also on a schedule', () => {
  for (const fn of functions) {
    expect(existsSync(join(PROJECT_ROOT, fn.entry))).toBe(true);
    if (fn.triggers.some((t) => t.kind === 'http' && t.access === 'cron'))
      expect(fn.triggers.some((t) => t.kind === 'schedule')).toBe(true);
  }
});

test("every HTTP request ends before API Gateway's 30-second integration limit", () => {
  const limitMs = HTTP_API_INTEGRATION_TIMEOUT_SECONDS * 1000;
  for (const fn of functions.filter((f) => f.triggers.some((t) => t.kind === 'http'))) {
    const cron = fn.triggers.some((t) => t.kind === 'http' && t.access === 'cron');
    // a sweep's function has the scheduled run's time; called over HTTP it works to a shorter budget
    const httpRunMs = cron ? SWEEP_BUDGET.http.capMs : fn.timeoutSeconds * 1000;
    expect({ id: fn.id, endsInTime: httpRunMs < limitMs }).toEqual({ id: fn.id, endsInTime: true });
  }
  expect(timeBudgetFor('http', 300_000)).toBeLessThan(limitMs);
});

test('schedules: embedding sweeper hourly, retention daily', () => {
  const schedule = (id: string) => functions.find((f) => f.id === id)!.triggers.find((t) => t.kind === 'schedule');
  expect(schedule('embedding-sweeper')).toEqual({ kind: 'schedule', expression: 'rate(1 hour)' });
  expect(rateToMs('rate(1 day)')).toBe(86_400_000);
  expect(schedule('retention-sweep')).toEqual({ kind: 'schedule', expression: 'rate(1 day)' });
  expect(() => rateToMs('cron(0 * * * ? *)' as never)).toThrow();
});

test('every queue has a consumer, and its visibility timeout is at least six times the consumer timeout', () => {
  for (const queue of Object.keys(queues) as QueueName[]) {
    const consumers = functions.filter((f) => f.triggers.some((t) => t.kind === 'queue' && t.queue === queue));
    expect(consumers).toHaveLength(1);
    expect(visibilityTimeoutSeconds(queue)).toBeGreaterThanOrEqual(6 * consumers[0]!.timeoutSeconds);
  }
});
