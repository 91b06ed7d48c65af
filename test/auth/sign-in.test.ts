/**
 * The sign-in proxies' answers to identity-provider trouble, with a fake provider client over a test
 * database: throttling is a 429 (audited), an unreachable provider a 503 (not audited: nobody failed
 * to sign in), a challenge the API does not offer a 409; an invited user's new password is sent as
 * Cognito expects it, and a refused one is a 400 naming the policy; MFA_SETUP walks AssociateSoftwareToken,
 * VerifySoftwareToken and the MFA_SETUP answer with Cognito's sessions; forgot-password hides every refusal.
 * Plus the twin's TOTP against the RFC 6238 test vector.
 */
import type { AdminRespondToAuthChallengeCommand } from '@aws-sdk/client-cognito-identity-provider';
import { AUDIT_FAILURE_MARKER } from '#core/audit/audit';
import { authLoginRoute, authMfaVerifyRoute } from '#core/auth/contract';
import { answerOf } from '../support/answer-of';
import { routeCall } from '../support/route-call';
import { logger } from '#core/logger';
import {
  login,
  forgotPassword,
  auditRefusedSignIn,
  LOGIN_FAILED,
  RESET_CODE_SENT,
  setNewPassword,
  setUpMfa,
  type IdentityProviderClient,
  type SignInDeps,
} from '#core/auth/sign-in';
import { newTotpSecret, totpCode, totpMatches } from '../../lib/twin/identity/totp';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();
const origin = { sourceIp: '198.51.100.4', serverName: 'api.example.com', serverPath: '/api/auth/login', userAgent: 'jest' };
const failing = (name: string): IdentityProviderClient => ({
  send: async () => {
    throw Object.assign(new Error(`${name} happened`), { name });
  },
});
const answering = (out: unknown): IdentityProviderClient => ({ send: async () => out }) as unknown as IdentityProviderClient;
const deps = (idp: IdentityProviderClient): SignInDeps => ({ db, idp, userPoolId: 'pool', clientId: 'client' });
const failures = () => db.selectFrom('audit_log').selectAll().where('action', '=', 'auth.login_failed').execute();
const attempt = { email: 'someone@example.com', method: 'password' as const, password: 'Secret-Passw0rd!' };

test('a throttled provider is a 429 with Retry-After, audited', async () => {
  const error = await login(deps(failing('TooManyRequestsException')), attempt, origin).catch(answerOf);
  expect(error).toMatchObject({ status: 429, headers: { 'retry-after': '60' } });
  expect(await failures()).toEqual([
    expect.objectContaining({ actor_address: '198.51.100.4', detail: { stage: 'password', reason: 'TooManyRequestsException' } }),
  ]);
});

test('an unreachable provider is a 503 and no failed sign-in is recorded', async () => {
  const before = (await failures()).length;
  for (const name of ['InternalErrorException', 'TimeoutError', 'ECONNREFUSED']) {
    expect(await login(deps(failing(name)), attempt, origin).catch(answerOf)).toMatchObject({ status: 503 });
  }
  expect((await failures()).length).toBe(before);
});

test('an invalid sign-in body (a NUL in the email, an unpaired surrogate, a missing field) is a 400, still audited, escaped', async () => {
  const errorLog = jest.spyOn(logger, 'error');
  const before = (await failures()).length;
  // the sign-in routes as deployed (their contracts and refusal audit), answering the parsed body
  const loginRoute = routeCall(
    authLoginRoute,
    async ({ body }) => ({
      status: 'signed_in' as const,
      access_token: body.email,
      id_token: 'id',
      expires_in: 60,
      token_type: 'Bearer' as const,
    }),
    { refused: auditRefusedSignIn({ action: LOGIN_FAILED, stage: 'password' }, async () => db) },
  );
  const mfaRoute = routeCall(
    authMfaVerifyRoute,
    async () => {
      throw new Error('not reached');
    },
    { refused: auditRefusedSignIn({ action: LOGIN_FAILED, stage: 'mfa' }, async () => db) },
  );
  const sourceIp = origin.sourceIp;
  await expect(loginRoute({ body: { email: 'a\u0000b@example.com', password: 'x' }, sourceIp })).rejects.toMatchObject({
    status: 400,
    code: 'validation_failed',
    details: [{ path: 'email' }],
  });
  await expect(
    mfaRoute({ body: { username: 'u\uD800', session: 's', challenge: 'totp', code: '123456' }, sourceIp }),
  ).rejects.toMatchObject({ status: 400, details: [{ path: 'username' }] });
  await expect(loginRoute({ body: { email: 'someone@example.com' }, sourceIp })).rejects.toMatchObject({ status: 400 });
  await expect(loginRoute({ body: 'not an object', sourceIp })).rejects.toMatchObject({ status: 400 });
  const rows = (await failures()).slice(before);
  expect(rows).toEqual([
    expect.objectContaining({
      outcome: 'failure',
      actor_address: '198.51.100.4',
      target: 'user:a\\u0000b@example.com',
      detail: { stage: 'password', reason: 'invalid_input', fields: ['email'] },
    }),
    expect.objectContaining({ target: 'user:u\\ud800', detail: { stage: 'mfa', reason: 'invalid_input', fields: ['username'] } }),
    expect.objectContaining({ target: 'user:someone@example.com', detail: expect.objectContaining({ reason: 'invalid_input' }) }),
    expect.objectContaining({ target: null, detail: expect.objectContaining({ reason: 'invalid_input' }) }),
  ]);
  expect(JSON.stringify(rows)).not.toContain('Secret');
  expect(errorLog.mock.calls.filter(([m]) => m === AUDIT_FAILURE_MARKER)).toEqual([]);
  errorLog.mockRestore();
  // a valid body reaches the implementation, and nothing is audited for it here
  await expect(loginRoute({ body: attempt, sourceIp })).resolves.toMatchObject({ access_token: attempt.email });
});

test('a challenge the API does not offer is a 409 naming it', async () => {
  const out = { ChallengeName: 'CUSTOM_CHALLENGE', Session: 's', ChallengeParameters: {} };
  expect(await login(deps(answering(out)), attempt, origin).catch(answerOf)).toMatchObject({
    status: 409,
    code: 'challenge_unsupported',
    message: expect.stringContaining('CUSTOM_CHALLENGE'),
  });
});

describe('an invited user (NEW_PASSWORD_REQUIRED)', () => {
  const newPassword = { username: 'sub-1', session: 'session-1', new_password: 'Chosen-Passw0rd!' };

  test("login answers the new_password challenge with Cognito's username for the user", async () => {
    const out = {
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: 'session-1',
      ChallengeParameters: { USER_ID_FOR_SRP: 'sub-1', requiredAttributes: '[]', userAttributes: '{}' },
    };
    await expect(login(deps(answering(out)), attempt, origin)).resolves.toEqual({
      status: 'challenge',
      challenge: 'new_password',
      username: 'sub-1',
      session: 'session-1',
    });
  });

  test('the new password answers the challenge, and the next step comes back', async () => {
    const sent: AdminRespondToAuthChallengeCommand[] = [];
    const idp = {
      send: async (command: AdminRespondToAuthChallengeCommand) => {
        sent.push(command);
        return { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 'session-2', ChallengeParameters: { USER_ID_FOR_SRP: 'sub-1' } };
      },
    } as unknown as IdentityProviderClient;
    await expect(setNewPassword(deps(idp), newPassword, origin)).resolves.toEqual({
      status: 'challenge',
      challenge: 'totp',
      username: 'sub-1',
      session: 'session-2',
    });
    expect(sent.map((c) => c.input)).toEqual([
      expect.objectContaining({
        UserPoolId: 'pool',
        ClientId: 'client',
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: 'session-1',
        ChallengeResponses: { USERNAME: 'sub-1', NEW_PASSWORD: 'Chosen-Passw0rd!' },
        ContextData: expect.objectContaining({ IpAddress: '198.51.100.4' }),
      }),
    ]);
  });

  test('a password the pool refuses (policy or history) is a 400 naming the policy, audited without the password', async () => {
    const before = (await failures()).length;
    for (const name of ['InvalidPasswordException', 'PasswordHistoryPolicyViolationException']) {
      expect(await setNewPassword(deps(failing(name)), newPassword, origin).catch(answerOf)).toMatchObject({
        status: 400,
        message: expect.stringMatching(/password policy: at least 12 characters.*temporary password/),
      });
    }
    const rows = (await failures()).slice(before);
    expect(rows.map((r) => r.detail)).toEqual([
      { stage: 'new_password', reason: 'InvalidPasswordException' },
      { stage: 'new_password', reason: 'PasswordHistoryPolicyViolationException' },
    ]);
    expect(JSON.stringify(rows)).not.toContain('Chosen-Passw0rd!');
  });
});

describe('MFA_SETUP (a pool that requires MFA, for a user with no authenticator)', () => {
  /** a provider answering each operation in turn, recording what it was sent */
  const scripted = (...answers: unknown[]) => {
    const sent: { name: string; input: Record<string, unknown> }[] = [];
    const idp = {
      send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
        sent.push({ name: command.constructor.name, input: command.input });
        const answer = answers.shift();
        if (answer instanceof Error) throw answer;
        return answer;
      },
    } as unknown as IdentityProviderClient;
    return { idp, sent };
  };
  const mfaSetup = {
    ChallengeName: 'MFA_SETUP',
    Session: 'session-1',
    ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]', USER_ID_FOR_SRP: 'sub-9' },
  };
  const rejection = (name: string) => Object.assign(new Error(name), { name });

  test("login answers the secret from AssociateSoftwareToken (given the challenge's session) and its new session", async () => {
    const org = (await db.insertInto('organizations').values({ name: 'Enrolling Org' }).returning('id').executeTakeFirstOrThrow()).id;
    await db
      .insertInto('users')
      .values({
        organization_id: org,
        idp_subject: 'sub-9',
        email: 'enrolling@northwind.example',
        display_name: 'Enrolling',
        role: 'investigator',
      })
      .execute();
    const { idp, sent } = scripted(mfaSetup, { SecretCode: 'ABCDEFGH234567', Session: 'session-2' });
    await expect(login(deps(idp), attempt, origin)).resolves.toEqual({
      status: 'challenge',
      challenge: 'mfa_setup',
      username: 'sub-9',
      session: 'session-2',
      secret_code: 'ABCDEFGH234567',
      otpauth_uri:
        'otpauth://totp/Investigation%20Analysis:enrolling%40northwind.example?secret=ABCDEFGH234567&issuer=Investigation%20Analysis',
    });
    expect(sent.map((c) => c.name)).toEqual(['AdminInitiateAuthCommand', 'AssociateSoftwareTokenCommand']);
    expect(sent[1]!.input).toEqual({ Session: 'session-1' });
  });

  test('after a new password too', async () => {
    const { idp } = scripted(mfaSetup, { SecretCode: 'ABCDEFGH234567', Session: 'session-2' });
    await expect(
      setNewPassword(deps(idp), { username: 'sub-9', session: 's', new_password: 'Chosen-Passw0rd!' }, origin),
    ).resolves.toMatchObject({ challenge: 'mfa_setup', session: 'session-2', secret_code: 'ABCDEFGH234567' });
  });

  test('a pool that offers no TOTP to set up is a 409 naming MFA_SETUP, and nothing is associated', async () => {
    const { idp, sent } = scripted({ ...mfaSetup, ChallengeParameters: { MFAS_CAN_SETUP: '["SMS_MFA"]' } });
    expect(await login(deps(idp), attempt, origin).catch(answerOf)).toMatchObject({
      status: 409,
      code: 'challenge_unsupported',
      message: expect.stringContaining('MFA_SETUP'),
    });
    expect(sent).toHaveLength(1);
  });

  test('the code is verified with the session, and the verified session answers MFA_SETUP', async () => {
    const { idp, sent } = scripted(
      { Status: 'SUCCESS', Session: 'session-3' },
      { AuthenticationResult: { AccessToken: 'a', IdToken: 'i', ExpiresIn: 3600 } },
    );
    await expect(setUpMfa(deps(idp), { username: 'sub-9', session: 'session-2', code: '123456' }, origin)).resolves.toEqual({
      status: 'signed_in',
      access_token: 'a',
      id_token: 'i',
      expires_in: 3600,
      token_type: 'Bearer',
    });
    expect(sent).toEqual([
      { name: 'VerifySoftwareTokenCommand', input: { Session: 'session-2', UserCode: '123456' } },
      {
        name: 'AdminRespondToAuthChallengeCommand',
        input: expect.objectContaining({
          UserPoolId: 'pool',
          ClientId: 'client',
          ChallengeName: 'MFA_SETUP',
          Session: 'session-3',
          ChallengeResponses: { USERNAME: 'sub-9' },
        }),
      },
    ]);
  });

  test('a wrong code (an exception or Status ERROR) is a 401, audited at stage mfa_setup, and the challenge is not answered', async () => {
    const before = (await failures()).length;
    for (const answer of [rejection('EnableSoftwareTokenMFAException'), rejection('CodeMismatchException'), { Status: 'ERROR' }]) {
      const { idp, sent } = scripted(answer);
      expect(await setUpMfa(deps(idp), { username: 'sub-9', session: 'session-2', code: '000000' }, origin).catch(answerOf)).toMatchObject({
        status: 401,
        message: expect.stringMatching(/sign in again/),
      });
      expect(sent).toHaveLength(1);
    }
    const rows = (await failures()).slice(before);
    expect(rows.map((r) => [r.target, r.detail])).toEqual([
      ['user:sub-9', { stage: 'mfa_setup', reason: 'EnableSoftwareTokenMFAException' }],
      ['user:sub-9', { stage: 'mfa_setup', reason: 'CodeMismatchException' }],
      ['user:sub-9', { stage: 'mfa_setup', reason: 'EnableSoftwareTokenMFAException' }],
    ]);
  });
});

test('forgot-password answers the same for every refusal, and only provider trouble shows', async () => {
  for (const name of ['UserNotFoundException', 'NotAuthorizedException', 'InvalidParameterException', 'LimitExceededException']) {
    await expect(forgotPassword(deps(failing(name)), { email: attempt.email })).resolves.toEqual({
      status: 'code_sent',
      message: RESET_CODE_SENT,
    });
  }
  expect(await forgotPassword(deps(failing('InternalErrorException')), { email: attempt.email }).catch(answerOf)).toMatchObject({
    status: 503,
  });
});

test('TOTP: the RFC 6238 SHA-1 vector, and one step of drift either way', () => {
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890"
  expect(totpCode(secret, 59_000)).toBe('287082');
  expect(totpCode(secret, 1_111_111_109_000)).toBe('081804');
  const now = 1_700_000_000_000;
  expect(totpMatches(secret, totpCode(secret, now - 30_000), now)).toBe(true);
  expect(totpMatches(secret, totpCode(secret, now + 30_000), now)).toBe(true);
  expect(totpMatches(secret, totpCode(secret, now - 90_000), now)).toBe(false);
  expect(newTotpSecret(Buffer.from('12345678901234567890'))).toBe(secret);
  expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
});
