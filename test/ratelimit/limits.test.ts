/** Rate limit rules on their own: RATE_LIMITS parsing, route classes, exemptions, the 429's shape. */
import fc from 'fast-check';
import { httpRoutes } from '#manifest';
import { errorBody, errorHeaders, httpStatusOf } from '#core/http/errors';
import { DEFAULT_RATE_LIMITS, isExempt, parseRateLimits, RATE_CLASSES, rateClassOf, tooManyRequests } from '#core/ratelimit/limits';

/** The defaults as the README's configuration table documents them (`RATE_LIMITS`). */
const DOCUMENTED_DEFAULTS = {
  auth: { count: 20, windowSeconds: 60 },
  public: { count: 60, windowSeconds: 60 },
  investigator: { count: 600, windowSeconds: 60 },
  admin: { count: 600, windowSeconds: 60 },
  cron: { count: 30, windowSeconds: 60 },
};

test("no RATE_LIMITS keeps the documented defaults (anonymous sign-in's 20 a minute the strictest)", () => {
  expect(parseRateLimits(undefined)).toEqual(DOCUMENTED_DEFAULTS);
  expect(parseRateLimits('  ')).toEqual(DOCUMENTED_DEFAULTS);
  expect(DEFAULT_RATE_LIMITS).toEqual(DOCUMENTED_DEFAULTS);
});

test('entries override their class only; off removes a class, or the whole limiter', () => {
  const limits = parseRateLimits(' auth = 5/10 , cron=off,investigator=1000/3600');
  expect(limits.auth).toEqual({ count: 5, windowSeconds: 10 });
  expect(limits.cron).toBeUndefined();
  expect(limits.investigator).toEqual({ count: 1000, windowSeconds: 3600 });
  expect(limits.admin).toEqual(DEFAULT_RATE_LIMITS.admin);
  expect(Object.values(parseRateLimits('off')).every((l) => l === undefined)).toBe(true);
});

test('malformed entries are refused, naming the entry', () => {
  for (const bad of ['auth', 'auth=5', 'auth=0/60', 'auth=5/0', 'auth=5/90000', 'robots=5/60', 'auth=-1/60', 'auth=5/60;public=1/1']) {
    expect(() => parseRateLimits(bad)).toThrow(/RATE_LIMITS/);
  }
});

test('any valid entry round-trips', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...RATE_CLASSES),
      fc.integer({ min: 1, max: 1e6 }),
      fc.integer({ min: 1, max: 86_400 }),
      (c, count, windowSeconds) => {
        expect(parseRateLimits(`${c}=${count}/${windowSeconds}`)[c]).toEqual({ count, windowSeconds });
      },
    ),
  );
});

test.each([
  // the anonymous sign-in routes: their own, strictest class
  ['POST', '/api/auth/login', 'auth'],
  ['POST', '/api/auth/forgot-password', 'auth'],
  ['POST', '/api/auth/webauthn/authenticate/verify', 'auth'],
  // other public routes
  ['GET', '/api/health', 'public'],
  ['POST', '/api/webhooks/payment', 'public'],
  // a signed-in investigator's
  ['POST', '/api/analysis', 'investigator'],
  ['GET', '/api/investigations', 'investigator'],
  ['POST', '/api/analysis/{analysis_id}/feedback', 'investigator'],
  // the administrators'
  ['GET', '/api/admin/users', 'admin'],
  ['PUT', '/api/admin/settings', 'admin'],
  // the scheduler's bearer
  ['POST', '/api/admin/cron/embedding-sweeper', 'cron'],
  ['POST', '/api/admin/cron/retention', 'cron'],
])('%s %s is counted in the %s class', (method, path, rateClass) => {
  const route = httpRoutes().find((r) => r.method === method && r.path === path);
  expect(route).toBeDefined();
  expect(rateClassOf(route!)).toBe(rateClass);
});

test("the class follows the route's path and access, not its function: an /api/auth/ path is auth whatever its access", () => {
  expect(rateClassOf({ path: '/api/auth/anything', access: 'investigator' })).toBe('auth');
  expect(rateClassOf({ path: '/api/authors', access: 'public' })).toBe('public');
  expect(rateClassOf({ path: '/api/analysis/auth/x', access: 'admin' })).toBe('admin');
});

test('every route has one of the five classes, and sign-in has at least four routes in its own; health and openapi are exempt', () => {
  const routes = httpRoutes();
  for (const route of routes) expect(RATE_CLASSES).toContain(rateClassOf(route));
  expect(routes.filter((r) => rateClassOf(r) === 'auth').length).toBeGreaterThanOrEqual(4);
  expect(
    routes
      .filter((r) => isExempt(r.fn))
      .map((r) => r.fn.id)
      .sort(),
  ).toEqual(['health', 'openapi']);
});

test('the 429 carries Retry-After in whole seconds, at least 1', () => {
  const error = tooManyRequests('slow down', 12.2);
  expect(httpStatusOf(error)).toBe(429);
  expect(errorHeaders(error)).toEqual({ 'retry-after': '13' });
  expect(errorBody(error)).toEqual({ error: { code: 'rate_limited', message: 'slow down', details: { retry_after_seconds: 13 } } });
  expect(errorHeaders(tooManyRequests('x', 0))).toEqual({ 'retry-after': '1' });
});
