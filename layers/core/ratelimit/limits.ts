/**
 * Rate limit rules, pure: which class a route belongs to, the configured limit of each class
 * (RATE_LIMITS), and the 429 the API answers. No I/O here; the counter lives in limiter.ts.
 *
 * RATE_LIMITS is a comma-separated list of `class=count/seconds` (or `class=off`), e.g.
 * `auth=20/60,investigator=600/60`. Classes not named keep their default (DEFAULT_RATE_LIMITS);
 * `RATE_LIMITS=off` switches the limiter off altogether.
 */
import type { Access, FunctionSpec, HttpTrigger } from '#manifest';
import { ENV } from '#manifest/runtime-names';
import { DomainError } from '#core/errors';

/** `auth` is the anonymous sign-in routes (/api/auth/*), stricter than other public routes. */
export type RateClass = 'auth' | Access;

export const RATE_CLASSES: readonly RateClass[] = ['auth', 'public', 'investigator', 'admin', 'cron'];

export interface Limit {
  count: number;
  windowSeconds: number;
}

/** Per key (user, or address when anonymous) and class; `undefined` means no limit. */
export type RateLimits = Record<RateClass, Limit | undefined>;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  auth: { count: 20, windowSeconds: 60 },
  public: { count: 60, windowSeconds: 60 },
  investigator: { count: 600, windowSeconds: 60 },
  admin: { count: 600, windowSeconds: 60 },
  cron: { count: 30, windowSeconds: 60 },
};

/**
 * Never limited: the health check (canaries and smoke tests read it; a 429 there would page for the
 * wrong reason) and the static OpenAPI document (cheaper to serve than to count).
 */
const EXEMPT_FUNCTIONS: ReadonlySet<string> = new Set(['health', 'openapi']);

export const rateClassOf = (route: Pick<HttpTrigger, 'path' | 'access'>): RateClass =>
  route.path.startsWith('/api/auth/') ? 'auth' : route.access;

export const isExempt = (fn: Pick<FunctionSpec, 'id' | 'uses'>): boolean => EXEMPT_FUNCTIONS.has(fn.id) || !fn.uses.includes('database'); // the counter is in the database

const ENTRY = /^\s*([a-z]+)\s*=\s*(?:(off)|(\d+)\s*\/\s*(\d+))\s*$/;

/** Parses RATE_LIMITS over the defaults; an invalid value throws naming the bad entry. */
export const parseRateLimits = (raw: string | undefined): RateLimits => {
  const limits = { ...DEFAULT_RATE_LIMITS };
  if (raw === undefined || raw.trim() === '') return limits;
  if (raw.trim() === 'off') return Object.fromEntries(RATE_CLASSES.map((c) => [c, undefined])) as RateLimits;
  for (const entry of raw.split(',')) {
    const m = ENTRY.exec(entry);
    const rateClass = m?.[1] as RateClass | undefined;
    if (!m || !rateClass || !RATE_CLASSES.includes(rateClass)) {
      throw new Error(`${ENV.rateLimits}: '${entry.trim()}' is not class=count/seconds or class=off (classes: ${RATE_CLASSES.join(', ')})`);
    }
    if (m[2]) {
      limits[rateClass] = undefined;
      continue;
    }
    const count = Number(m[3]);
    const windowSeconds = Number(m[4]);
    if (count < 1 || windowSeconds < 1 || windowSeconds > 86_400) {
      throw new Error(`${ENV.rateLimits}: '${entry.trim()}' needs a count ≥ 1 and a window of 1 to 86400 seconds`);
    }
    limits[rateClass] = { count, windowSeconds };
  }
  return limits;
};

/** Too many requests, with when to try again (whole seconds, at least 1: the edge's Retry-After). */
export const tooManyRequests = (message: string, retryAfterSeconds: number): DomainError => {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new DomainError('rate_limited', 'rate_limited', message, { retry_after_seconds: seconds }, seconds);
};
