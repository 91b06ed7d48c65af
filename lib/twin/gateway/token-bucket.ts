/**
 * API Gateway's throttle of a route: a token bucket that holds up to the burst limit, starts full and
 * refills at the rate limit per second; each request takes a token, and one that finds none is refused
 * (429). Pure: the caller keeps the bucket and says what time it is.
 */
import type { GatewayThrottle } from '../../stacks/api-stack';

/**
 * Thousandths of a token left at a moment (ms, any monotonic clock): a refill over whole milliseconds is
 * then a whole number, so ten refills of 10 ms at 10 tokens a second make exactly one token.
 */
export interface TokenBucket {
  milliTokens: number;
  atMs: number;
}

const MILLI = 1000;

export const fullBucket = (throttle: GatewayThrottle, nowMs: number): TokenBucket => ({
  milliTokens: throttle.burstLimit * MILLI,
  atMs: nowMs,
});

/** A request at `nowMs`: whether it may pass, and the bucket after it. */
export const takeToken = (bucket: TokenBucket, throttle: GatewayThrottle, nowMs: number): { allowed: boolean; bucket: TokenBucket } => {
  // tokens per second × ms = thousandths of a token
  const refilled = Math.min(throttle.burstLimit * MILLI, bucket.milliTokens + Math.max(0, nowMs - bucket.atMs) * throttle.rateLimit);
  const allowed = refilled >= MILLI;
  return { allowed, bucket: { milliTokens: allowed ? refilled - MILLI : refilled, atMs: Math.max(nowMs, bucket.atMs) } };
};
