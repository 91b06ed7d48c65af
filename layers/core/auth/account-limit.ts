/**
 * The per-account sign-in counter, next to the per-address one (issue 14, item 7). The rate limiter
 * counts anonymous sign-in requests per source address (`auth` class, 20 a minute by default); behind
 * one NAT address a whole office shares that counter, so it must stay generous, and it does nothing
 * against a password guesser spread over many addresses. This counter is per account: every password
 * or passkey sign-in naming an email counts against that email, whatever the address, and past
 * SIGN_IN_ACCOUNT_LIMIT (default 10 per 15 minutes) the account's sign-ins answer 429 with Retry-After
 * without reaching the identity provider — audited as failed sign-ins. Other accounts behind the same
 * address are untouched. It uses the rate limiter's counter store (`countHit`, `rate_limit_counters`),
 * keyed by a hash of the lowercased email (the table holds no address book), and fails open like the
 * limiter: a counter store that fails or hangs lets the attempt through. RATE_LIMITS=off (the twin's
 * tests) switches it off too. Cognito's own lockout (docs/auth.md) still applies behind it.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { env, ENV } from '#core/config';
import type { Database } from '#core/db/schema';
import { logger } from '#core/logger';
import { countEvent } from '#core/metrics';
import { configuredLimits, countHit, RATE_LIMIT_MARKER, type Hit } from '#core/ratelimit/limiter';
import { tooManyRequests, type Limit } from '#core/ratelimit/limits';

export const DEFAULT_SIGN_IN_ACCOUNT_LIMIT: Limit = { count: 10, windowSeconds: 900 };
/** how long an attempt waits for the counter store before it is let through */
const COUNTER_TIMEOUT_MS = 1_000;

/** SIGN_IN_ACCOUNT_LIMIT: `count/seconds` or `off`; undefined when off. An invalid value logs and keeps the default. */
export const accountLimit = (): Limit | undefined => {
  if (!configuredLimits().auth) return undefined; // rate limiting switched off for sign-in
  const raw = env(ENV.signInAccountLimit)?.trim();
  if (raw === undefined || raw === '') return DEFAULT_SIGN_IN_ACCOUNT_LIMIT;
  if (raw === 'off') return undefined;
  const m = /^(\d+)\s*\/\s*(\d+)$/.exec(raw);
  const count = Number(m?.[1]);
  const windowSeconds = Number(m?.[2]);
  if (!m || count < 1 || windowSeconds < 1 || windowSeconds > 86_400) {
    logger.error(`${RATE_LIMIT_MARKER} invalid ${ENV.signInAccountLimit} '${raw}' (count/seconds or off); using the default`);
    return DEFAULT_SIGN_IN_ACCOUNT_LIMIT;
  }
  return { count, windowSeconds };
};

/** The counter key of an account: a hash of its lowercased name, never the name itself. */
export const accountKey = (name: string): string =>
  `auth-account:${createHash('sha256').update(name.trim().toLowerCase()).digest('hex').slice(0, 32)}`;

/**
 * Counts one sign-in attempt against the account; undefined when allowed, else the 429 to answer
 * (the caller audits it). Never throws for the counter store's sake.
 */
export const countAccountAttempt = async (db: Kysely<Database>, name: string): Promise<ReturnType<typeof tooManyRequests> | undefined> => {
  const limit = accountLimit();
  if (!limit) return undefined;
  const key = accountKey(name);
  let hit: Hit;
  let timer: NodeJS.Timeout | undefined;
  const work = countHit(db, key, limit.windowSeconds);
  try {
    hit = await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the counter store did not answer within ${COUNTER_TIMEOUT_MS} ms`)), COUNTER_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    void work.catch(() => undefined);
    logger.error(`${RATE_LIMIT_MARKER} account counter unavailable; sign-in allowed`, { key, error: (error as Error).message });
    return undefined;
  } finally {
    clearTimeout(timer);
  }
  if (hit.count <= limit.count) return undefined;
  logger.warn(`${RATE_LIMIT_MARKER} sign-in refused for the account`, {
    key,
    limit: limit.count,
    windowSeconds: limit.windowSeconds,
    count: hit.count,
  });
  countEvent('rateLimitRefusals');
  return tooManyRequests(
    `Too many sign-in attempts for this account; try again in ${hit.retryAfterSeconds} seconds.`,
    hit.retryAfterSeconds,
  );
};
