/**
 * The API's rate limiter: a fixed-window counter per key and route class in `rate_limit_counters`,
 * shared by every instance through the database — one atomic upsert (one round trip) per request.
 * The key is the caller's JWT subject, or the source address when the request carries no verified
 * token (public and cron routes). The window is aligned on the database clock, so instances with
 * skewed clocks still share it. If the counter store fails or does not answer within COUNTER_TIMEOUT_MS
 * (a hung database), the request is let through and the failure logged: the limiter guards against
 * abuse, it must not take the API down with it.
 */
import { sql, type Kysely } from 'kysely';
import type { FunctionFacts, HttpTrigger } from '#manifest';
import { env, ENV } from '#core/config';
import { database } from '#core/db/connection';
import type { Database } from '#core/db/schema';
import type { APIGatewayProxyEventV2WithJWTAuthorizer as HttpEvent } from 'aws-lambda';
import { logger } from '#core/logger';
import { countEvent } from '#core/metrics';
import { DEFAULT_RATE_LIMITS, isExempt, parseRateLimits, rateClassOf, tooManyRequests, type RateLimits } from './limits';

export const RATE_LIMIT_MARKER = '[RATE_LIMIT]';

export interface Hit {
  /** requests counted in the current window, this one included */
  count: number;
  /** seconds until the current window ends */
  retryAfterSeconds: number;
}

/**
 * Counts one request against `key` in the current window and returns the window's count. The same
 * statement drops the key's earlier windows, so a key holds at most one row.
 */
export const countHit = async (db: Kysely<Database>, key: string, windowSeconds: number): Promise<Hit> => {
  const { rows } = await sql<{ count: number; retry_after: number }>`
    with slot as (select to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds}) as start),
    expired as (delete from rate_limit_counters where key = ${key} and window_start < (select start from slot))
    insert into rate_limit_counters as c (key, window_start, count)
    select ${key}, start, 1 from slot
    on conflict (key, window_start) do update set count = c.count + 1
    returning c.count::int as count,
      ceil(extract(epoch from c.window_start + make_interval(secs => ${windowSeconds}) - now()))::int as retry_after`.execute(db);
  const row = rows[0]!;
  return { count: row.count, retryAfterSeconds: Math.max(1, row.retry_after) };
};

let parsed: { raw: string | undefined; limits: RateLimits } | undefined;

/** RATE_LIMITS, re-parsed only when it changes; an invalid value logs an error and keeps the defaults. */
export const configuredLimits = (): RateLimits => {
  const raw = env(ENV.rateLimits);
  if (parsed && parsed.raw === raw) return parsed.limits;
  let limits = DEFAULT_RATE_LIMITS;
  try {
    limits = parseRateLimits(raw);
  } catch (error) {
    logger.error(`${RATE_LIMIT_MARKER} invalid configuration; using the defaults`, { error: (error as Error).message });
  }
  parsed = { raw, limits };
  return limits;
};

/** Who the request is counted against: the verified token's subject, else the source address. */
export const rateKeyOf = (event: HttpEvent): string => {
  const subject = event.requestContext?.authorizer?.jwt?.claims?.sub;
  return typeof subject === 'string' && subject !== '' ? `user:${subject}` : `ip:${event.requestContext?.http?.sourceIp ?? 'unknown'}`;
};

/**
 * How long a request waits for the counter store before it is let through: a hung database must not hold
 * every request for the connection and query timeouts first (the route's own queries then answer 503).
 */
const COUNTER_TIMEOUT_MS = 1_000;

const withinCounterTimeout = async <T>(work: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the counter store did not answer within ${COUNTER_TIMEOUT_MS} ms (database connection timed out)`)),
      COUNTER_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    void work.catch(() => undefined); // its later failure was already answered for
  }
};

/** Counts the request; over the limit → 429 with Retry-After and a `[RATE_LIMIT]` log line. */
export const enforceRateLimit = async (
  event: HttpEvent,
  route: HttpTrigger & { fn: Pick<FunctionFacts, 'id' | 'uses'> },
): Promise<void> => {
  if (isExempt(route.fn)) return;
  const rateClass = rateClassOf(route);
  const limit = configuredLimits()[rateClass];
  if (!limit) return;
  const key = `${rateClass}:${rateKeyOf(event)}`;
  let hit: Hit;
  try {
    hit = await withinCounterTimeout(database().then((db) => countHit(db, key, limit.windowSeconds)));
  } catch (error) {
    logger.error(`${RATE_LIMIT_MARKER} counter store unavailable; request allowed`, {
      key,
      route: event.routeKey,
      error: (error as Error).message,
    });
    return;
  }
  if (hit.count <= limit.count) return;
  logger.warn(`${RATE_LIMIT_MARKER} request refused`, {
    key,
    route: event.routeKey,
    limit: limit.count,
    windowSeconds: limit.windowSeconds,
    count: hit.count,
    retryAfterSeconds: hit.retryAfterSeconds,
  });
  countEvent('rateLimitRefusals');
  throw tooManyRequests(`Too many requests; try again in ${hit.retryAfterSeconds} seconds.`, hit.retryAfterSeconds);
};
