/** Rate limit rules on their own: RATE_LIMITS parsing, route classes, exemptions, the 429's shape. */
import fc from 'fast-check';
import { httpRoutes } from '#manifest';
import { errorBody, errorHeaders, httpStatusOf } from '#core/http/errors';
import { DEFAULT_RATE_LIMITS, isExempt, parseRateLimits, RATE_CLASSES, rateClassOf, tooManyRequests } from '#core/ratelimit/limits';

test('no RATE_LIMITS keeps the documented defaults; anonymous sign-in is the strictest class', () => {
  expect(parseRateLimits(undefined)).toEqual(DEFAULT_RATE_LIMITS);
  expect(parseRateLimits('  ')).toEqual(DEFAULT_RATE_LIMITS);
  const perMinute = (c: keyof typeof DEFAULT_RATE_LIMITS) => DEFAULT_RATE_LIMITS[c]!.count / DEFAULT_RATE_LIMITS[c]!.windowSeconds;
  for (const c of RATE_CLASSES.filter((c) => c !== 'auth')) expect(perMinute('auth')).toBeLessThan(perMinute(c));
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

test('route classes: /api/auth/* is auth, everything else its access level; health and openapi are exempt', () => {
  const routes = httpRoutes();
  for (const route of routes) {
    expect(rateClassOf(route)).toBe(route.path.startsWith('/api/auth/') ? 'auth' : route.access);
  }
  expect(routes.filter((r) => r.path.startsWith('/api/auth/')).length).toBeGreaterThanOrEqual(4);
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
