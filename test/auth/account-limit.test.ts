/**
 * The per-account sign-in counter next to the per-address one: past the account's limit its sign-ins
 * answer 429 with Retry-After without reaching the identity provider, whatever the address, and are
 * audited; other accounts behind the same (NAT) address are untouched; the counter fails open and is
 * off with RATE_LIMITS=off or SIGN_IN_ACCOUNT_LIMIT=off.
 */
import type { Kysely } from 'kysely';
import { accountKey, accountLimit, countAccountAttempt, DEFAULT_SIGN_IN_ACCOUNT_LIMIT } from '#core/auth/account-limit';
import { login, type IdentityProviderClient, type SignInDeps } from '#core/auth/sign-in';
import type { Database } from '#core/db/schema';
import { jsonColumn } from '#core/db/values';
import { ENV } from '#manifest/runtime-names';
import { answerOf } from '../support/answer-of';
import { useTestDatabase } from '../support/db';
import { setEnv } from '../support/config-env';

const db = useTestDatabase();
let calls = 0;
const wrongPassword: IdentityProviderClient = {
  send: async () => {
    calls += 1;
    throw Object.assign(new Error('no'), { name: 'NotAuthorizedException' });
  },
};
const deps: SignInDeps = { db, idp: wrongPassword, userPoolId: 'pool', clientId: 'client' };
const from = (sourceIp: string) => ({ sourceIp, serverName: 'api.example.com', serverPath: '/api/auth/login', userAgent: 'jest' });
const attempt = (email: string, ip = '203.0.113.1') =>
  login(deps, { email, method: 'password', password: 'Wrong-Passw0rd!' }, from(ip)).catch((e: unknown) => answerOf(e));

const saved = { limit: process.env[ENV.signInAccountLimit], rate: process.env[ENV.rateLimits] };
beforeEach(() => {
  setEnv({ [ENV.signInAccountLimit]: '3/900', [ENV.rateLimits]: undefined });
  calls = 0;
});
afterAll(() => {
  setEnv({ [ENV.signInAccountLimit]: saved.limit, [ENV.rateLimits]: saved.rate });
});

test("past the account's limit, from any address: 429 with Retry-After, audited, and the provider is not asked", async () => {
  const results = [];
  for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5'])
    results.push(await attempt('Target@Example.com', ip));
  expect(results.slice(0, 3)).toEqual([0, 1, 2].map(() => expect.objectContaining({ status: 401 })));
  expect(results.slice(3)).toEqual(
    [0, 1].map(() =>
      expect.objectContaining({ status: 429, code: 'rate_limited', headers: { 'retry-after': expect.stringMatching(/^\d+$/) } }),
    ),
  );
  expect(calls).toBe(3);
  const rows = await db.selectFrom('audit_log').selectAll().where('target', '=', 'user:target@example.com').orderBy('id').execute();
  expect(rows.map((r) => [r.actor_address, (jsonColumn(r.detail) as { reason: string }).reason])).toEqual([
    ['198.51.100.1', 'NotAuthorizedException'],
    ['198.51.100.2', 'NotAuthorizedException'],
    ['198.51.100.3', 'NotAuthorizedException'],
    ['198.51.100.4', 'account_rate_limited'],
    ['198.51.100.5', 'account_rate_limited'],
  ]);
  // the email's case does not make another account, and the counter keeps no email
  expect(await attempt('target@example.COM')).toMatchObject({ status: 429 });
  expect(accountKey('Target@Example.com')).toBe(accountKey(' target@example.com'));
  expect(accountKey('target@example.com')).not.toContain('example');
});

test("one NAT address: other accounts behind it are not locked out by one account's counter", async () => {
  for (let i = 0; i < 4; i += 1) await attempt('guessed@example.com', '192.0.2.10');
  expect(await attempt('guessed@example.com', '192.0.2.10')).toMatchObject({ status: 429 });
  for (const colleague of ['a@office.example', 'b@office.example', 'c@office.example']) {
    expect(await attempt(colleague, '192.0.2.10')).toMatchObject({ status: 401 });
  }
});

test('configuration: default 10 per 15 minutes; off; RATE_LIMITS=off switches it off too; an invalid value keeps the default', () => {
  setEnv({ [ENV.signInAccountLimit]: undefined });
  expect(accountLimit()).toEqual(DEFAULT_SIGN_IN_ACCOUNT_LIMIT);
  expect(DEFAULT_SIGN_IN_ACCOUNT_LIMIT).toEqual({ count: 10, windowSeconds: 900 });
  setEnv({ [ENV.signInAccountLimit]: 'off' });
  expect(accountLimit()).toBeUndefined();
  setEnv({ [ENV.signInAccountLimit]: '5/60' });
  expect(accountLimit()).toEqual({ count: 5, windowSeconds: 60 });
  setEnv({ [ENV.rateLimits]: 'off' });
  expect(accountLimit()).toBeUndefined();
  setEnv({ [ENV.rateLimits]: undefined, [ENV.signInAccountLimit]: 'lots' });
  expect(accountLimit()).toEqual(DEFAULT_SIGN_IN_ACCOUNT_LIMIT);
});

test('a counter store that fails lets the attempt through (fail open, like the limiter)', async () => {
  await expect(countAccountAttempt({} as Kysely<Database>, 'anyone@example.com')).resolves.toBeUndefined();
});
