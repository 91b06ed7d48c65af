/**
 * The stage's per-route throttles, as synthesized, in the twin's gateway: a burst of sign-ins beyond the
 * sign-in route's bucket gets API Gateway's 429 and never reaches the function, while a read route with
 * a bigger bucket, flooded in the same moment, is not throttled. Other end-to-end tests run with the
 * throttles off (test/support/render.ts E2E_CONTEXT); this one deploys them as `npm start` and AWS do.
 */
import { ROUTE_THROTTLES } from '../../lib/stacks/api-stack';
import { useTwin, type Reply } from '../support/twin';

const e2e = useTwin({ schedules: false, context: { gatewayThrottles: 'on' } });
const SIGN_IN = ROUTE_THROTTLES.auth;
/** Three times the burst: a loaded machine spreads their arrival over a second or more, and the bucket refills 10 a second meanwhile. */
const ATTEMPTS = 60;

test(`${ATTEMPTS} sign-ins at once: 429 Too Many Requests beyond the burst of ${SIGN_IN.burstLimit}, never invoking the function; reads in the same moment pass`, async () => {
  const token = await e2e.token('investigator');
  const times = (count: number, request: (i: number) => Promise<Reply>) => Promise.all(Array.from({ length: count }, (_, i) => request(i)));
  // unknown addresses, so no account's own lockout answers for the gateway
  const signIn = (i: number) =>
    e2e.call('POST', '/api/auth/login', undefined, { email: `nobody-${i}@example.com`, password: 'not the password' });
  const read = () => e2e.call('GET', '/api/investigations', token);
  // the same requests once first, so the burst finds warm environments and open connections (fetch keeps
  // them for 4 s): cold starts and connection set-up would spread its arrival over seconds, refilling the
  // bucket meanwhile. Then the sign-in bucket fills up again.
  await Promise.all([times(ATTEMPTS, signIn), times(ATTEMPTS, read)]);
  await new Promise((resolve) => setTimeout(resolve, (SIGN_IN.burstLimit / SIGN_IN.rateLimit) * 1000));

  // a burst spread over more seconds than the bucket takes to refill for all of it may pass whole, as it would in
  // API Gateway: a loaded machine once took that long (CI), so such a burst that passed whole is sent again, at most twice
  const everyOneRefilledSeconds = (ATTEMPTS - SIGN_IN.burstLimit) / SIGN_IN.rateLimit;
  const untested = (b: { signIns: Reply[]; elapsedSeconds: number }) =>
    b.elapsedSeconds >= everyOneRefilledSeconds && b.signIns.every((res) => res.status !== 429);
  let burst: { signIns: Reply[]; reads: Reply[]; elapsedSeconds: number; signInsBefore: number } | undefined;
  for (let sent = 0; sent < 3 && (!burst || untested(burst)); sent += 1) {
    if (burst) await new Promise((resolve) => setTimeout(resolve, (SIGN_IN.burstLimit / SIGN_IN.rateLimit) * 1000));
    const signInsBefore = e2e.twin.invocations('auth-login').length;
    const started = performance.now();
    const [signIns, reads] = await Promise.all([times(ATTEMPTS, signIn), times(ATTEMPTS, read)]);
    burst = { signIns, reads, elapsedSeconds: (performance.now() - started) / 1000, signInsBefore };
  }
  const { signIns, reads, elapsedSeconds, signInsBefore } = burst!;

  const throttled = signIns.filter((res) => res.status === 429);
  for (const res of throttled) expect(res.body).toEqual({ message: 'Too Many Requests' });
  const passed = signIns.filter((res) => res.status !== 429);
  for (const res of passed) expect(res.status).toBe(401);
  // the burst at once, plus what the bucket refilled while the requests arrived
  expect(passed.length).toBeGreaterThanOrEqual(SIGN_IN.burstLimit);
  expect(passed.length).toBeLessThanOrEqual(SIGN_IN.burstLimit + Math.ceil(SIGN_IN.rateLimit * elapsedSeconds));
  expect(throttled.length).toBeGreaterThan(0);
  expect(e2e.twin.invocations('auth-login').length - signInsBefore).toBe(passed.length);

  expect(reads.map((res) => res.status)).toEqual(Array(ATTEMPTS).fill(200));
}, 120_000);
