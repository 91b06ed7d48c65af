/**
 * API Gateway's throttle arithmetic: a bucket of `burstLimit` tokens, full at first, refilled at
 * `rateLimit` a second, one token a request. Time is simulated: each call says what time it is.
 */
import { fullBucket, takeToken, type TokenBucket } from '../../lib/twin/gateway/token-bucket';

const SIGN_IN = { rateLimit: 10, burstLimit: 20 };

/** `count` requests at `atMs`, from `bucket`: how many pass, and the bucket after them. */
const burst = (bucket: TokenBucket, count: number, atMs: number, throttle = SIGN_IN) => {
  let passed = 0;
  for (let i = 0; i < count; i++) {
    const taken = takeToken(bucket, throttle, atMs);
    bucket = taken.bucket;
    if (taken.allowed) passed++;
  }
  return { passed, bucket };
};

test('a full bucket lets the burst through at once, and refuses the rest of that moment', () => {
  expect(burst(fullBucket(SIGN_IN, 0), 30, 0).passed).toBe(20);
});

test('an empty bucket refills at the rate: one request every 1/rate seconds', () => {
  const empty = burst(fullBucket(SIGN_IN, 0), 20, 0).bucket;
  expect(burst(empty, 1, 99).passed).toBe(0);
  expect(burst(empty, 5, 100).passed).toBe(1);
  expect(burst(empty, 20, 1_000).passed).toBe(10);
});

test('refused requests take nothing: the bucket refills as if they had not come', () => {
  let bucket = burst(fullBucket(SIGN_IN, 0), 20, 0).bucket;
  for (let ms = 10; ms < 100; ms += 10) {
    const refused = burst(bucket, 3, ms);
    expect(refused.passed).toBe(0);
    bucket = refused.bucket;
  }
  expect(burst(bucket, 3, 100).passed).toBe(1);
});

test('an idle bucket fills up to the burst limit, never beyond', () => {
  const empty = burst(fullBucket(SIGN_IN, 0), 20, 0).bucket;
  expect(burst(empty, 100, 3_600_000).passed).toBe(20);
});

test('a slow route (1 a second, burst 5) and a bucket of burst 0, which refuses everything', () => {
  const cron = { rateLimit: 1, burstLimit: 5 };
  const empty = burst(fullBucket(cron, 0), 5, 0).bucket;
  expect([burst(empty, 1, 500, cron).passed, burst(empty, 3, 2_500, cron).passed]).toEqual([0, 2]);
  const closed = { rateLimit: 100, burstLimit: 0 };
  expect(burst(fullBucket(closed, 0), 10, 60_000, closed).passed).toBe(0);
});
