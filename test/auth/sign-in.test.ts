/**
 * The sign-in proxies' answers to identity-provider trouble, with a fake provider client over a test
 * database: throttling is a 429 (audited), an unreachable provider a 503 (not audited: nobody failed
 * to sign in), a challenge the API does not offer a 409; an invited user's new password is sent as
 * Cognito expects it, and a refused one is a 400 naming the policy; forgot-password hides every refusal.
 * Plus the twin's TOTP against the RFC 6238 test vector.
 */
import type { AdminRespondToAuthChallengeCommand } from '@aws-sdk/client-cognito-identity-provider';
import { login, forgotPassword, RESET_CODE_SENT, setNewPassword, type IdentityProviderClient, type SignInDeps } from '../../layers/core/auth/sign-in';
import { totpCode, totpMatches } from '../../lib/twin/totp';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();
const origin = { sourceIp: '198.51.100.4', serverName: 'api.example.com', serverPath: '/api/auth/login', userAgent: 'jest' };
const failing = (name: string): IdentityProviderClient => ({ send: async () => { throw Object.assign(new Error(`${name} happened`), { name }); } });
const answering = (out: unknown): IdentityProviderClient => ({ send: async () => out }) as unknown as IdentityProviderClient;
const deps = (idp: IdentityProviderClient): SignInDeps => ({ db, idp, userPoolId: 'pool', clientId: 'client' });
const failures = () => db.selectFrom('audit_log').selectAll().where('action', '=', 'auth.login_failed').execute();
const attempt = { email: 'someone@example.com', method: 'password' as const, password: 'Secret-Passw0rd!' };

test('a throttled provider is a 429 with Retry-After, audited', async () => {
  const error = await login(deps(failing('TooManyRequestsException')), attempt, origin).catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 429, headers: { 'retry-after': '60' } });
  expect(await failures()).toEqual([expect.objectContaining({ actor_address: '198.51.100.4', detail: { stage: 'password', reason: 'TooManyRequestsException' } })]);
});

test('an unreachable provider is a 503 and no failed sign-in is recorded', async () => {
  const before = (await failures()).length;
  for (const name of ['InternalErrorException', 'TimeoutError', 'ECONNREFUSED']) {
    await expect(login(deps(failing(name)), attempt, origin)).rejects.toMatchObject({ status: 503 });
  }
  expect((await failures()).length).toBe(before);
});

test('a challenge the API does not offer is a 409 naming it', async () => {
  const out = { ChallengeName: 'CUSTOM_CHALLENGE', Session: 's', ChallengeParameters: {} };
  await expect(login(deps(answering(out)), attempt, origin)).rejects.toMatchObject({ status: 409, code: 'challenge_unsupported', message: expect.stringContaining('CUSTOM_CHALLENGE') });
});

describe('an invited user (NEW_PASSWORD_REQUIRED)', () => {
  const newPassword = { username: 'sub-1', session: 'session-1', new_password: 'Chosen-Passw0rd!' };

  test('login answers the new_password challenge with Cognito\'s username for the user', async () => {
    const out = { ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: 'session-1', ChallengeParameters: { USER_ID_FOR_SRP: 'sub-1', requiredAttributes: '[]', userAttributes: '{}' } };
    await expect(login(deps(answering(out)), attempt, origin)).resolves.toEqual({ status: 'challenge', challenge: 'new_password', username: 'sub-1', session: 'session-1' });
  });

  test('the new password answers the challenge, and the next step comes back', async () => {
    const sent: AdminRespondToAuthChallengeCommand[] = [];
    const idp = { send: async (command: AdminRespondToAuthChallengeCommand) => {
      sent.push(command);
      return { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 'session-2', ChallengeParameters: { USER_ID_FOR_SRP: 'sub-1' } };
    } } as unknown as IdentityProviderClient;
    await expect(setNewPassword(deps(idp), newPassword, origin)).resolves.toEqual({ status: 'challenge', challenge: 'totp', username: 'sub-1', session: 'session-2' });
    expect(sent.map((c) => c.input)).toEqual([expect.objectContaining({
      UserPoolId: 'pool', ClientId: 'client', ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: 'session-1',
      ChallengeResponses: { USERNAME: 'sub-1', NEW_PASSWORD: 'Chosen-Passw0rd!' }, ContextData: expect.objectContaining({ IpAddress: '198.51.100.4' }),
    })]);
  });

  test('a password the pool refuses (policy or history) is a 400 naming the policy, audited without the password', async () => {
    const before = (await failures()).length;
    for (const name of ['InvalidPasswordException', 'PasswordHistoryPolicyViolationException']) {
      await expect(setNewPassword(deps(failing(name)), newPassword, origin))
        .rejects.toMatchObject({ status: 400, message: expect.stringMatching(/password policy: at least 12 characters.*temporary password/) });
    }
    const rows = (await failures()).slice(before);
    expect(rows.map((r) => r.detail)).toEqual([
      { stage: 'new_password', reason: 'InvalidPasswordException' }, { stage: 'new_password', reason: 'PasswordHistoryPolicyViolationException' },
    ]);
    expect(JSON.stringify(rows)).not.toContain('Chosen-Passw0rd!');
  });

  test('MFA_SETUP (a pool that requires MFA, for a user with no authenticator) stays a 409 naming it', async () => {
    const out = { ChallengeName: 'MFA_SETUP', Session: 'session-2', ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } };
    await expect(setNewPassword(deps(answering(out)), newPassword, origin)).rejects.toMatchObject({ status: 409, code: 'challenge_unsupported', message: expect.stringContaining('MFA_SETUP') });
  });
});

test('forgot-password answers the same for every refusal, and only provider trouble shows', async () => {
  for (const name of ['UserNotFoundException', 'NotAuthorizedException', 'InvalidParameterException', 'LimitExceededException']) {
    await expect(forgotPassword(deps(failing(name)), { email: attempt.email })).resolves.toEqual({ status: 'code_sent', message: RESET_CODE_SENT });
  }
  await expect(forgotPassword(deps(failing('InternalErrorException')), { email: attempt.email })).rejects.toMatchObject({ status: 503 });
});

test('TOTP: the RFC 6238 SHA-1 vector, and one step of drift either way', () => {
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890"
  expect(totpCode(secret, 59_000)).toBe('287082');
  expect(totpCode(secret, 1_111_111_109_000)).toBe('081804');
  const now = 1_700_000_000_000;
  expect(totpMatches(secret, totpCode(secret, now - 30_000), now)).toBe(true);
  expect(totpMatches(secret, totpCode(secret, now + 30_000), now)).toBe(true);
  expect(totpMatches(secret, totpCode(secret, now - 90_000), now)).toBe(false);
});
