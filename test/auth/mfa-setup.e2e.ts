/**
 * Enrolling a TOTP authenticator during sign-in (Cognito's MFA_SETUP) through the twin's HTTP API, with
 * the twin's pool switched to MFA ON (the `-c mfa=required` deployment) by SetUserPoolMfaConfig through
 * the real SDK client: login → mfa_setup with a secret → a code from it on /api/auth/mfa/setup → tokens
 * that work; later sign-ins ask for that authenticator's code. Wrong code, bad input and a spent session
 * are refused and change nothing. The pool's MFA mode is the twin's state: the suite switches it back to optional when
 * it is done, and enrols only users of its own (an enrolled user keeps its `totp` challenge), so it runs on a shared
 * twin (test/e2e/demo-twin-without-schedules.e2e.test.ts). PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import {
  AdminCreateUserCommand,
  CognitoIdentityProviderClient,
  SetUserPoolMfaConfigCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DEMO_ORGANIZATION_IDS, demoUser } from '#core/seed/demo';
import { TWIN_PASSWORD } from '../../lib/twin/identity/provider';
import { totpCode } from '../../lib/twin/identity/totp';
import { answerTotp, type TwinTest } from '../support/twin';

const admin = demoUser('admin');

interface SetupChallenge {
  status: string;
  challenge: string;
  username: string;
  session: string;
  secret_code: string;
  otpauth_uri: string;
}

export const enrollingAuthenticators = (e2e: TwinTest): void => {
  const { call } = e2e;
  let idp: CognitoIdentityProviderClient;
  const setPoolMfa = (MfaConfiguration: 'ON' | 'OPTIONAL') =>
    idp.send(
      new SetUserPoolMfaConfigCommand({
        UserPoolId: e2e.twin.plan.userPool.id,
        MfaConfiguration,
        SoftwareTokenMfaConfiguration: { Enabled: true },
      }),
    );

  beforeAll(async () => {
    idp = new CognitoIdentityProviderClient({
      endpoint: e2e.twin.identityProvider.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'twin', secretAccessKey: 'twin-secret' },
    });
    await setPoolMfa('ON');
  });

  afterAll(async () => {
    await setPoolMfa('OPTIONAL');
    idp.destroy();
  });

  const login = (email: string, password = TWIN_PASSWORD) => call('POST', '/api/auth/login', undefined, { email, password });
  const setUp = (body: unknown) => call('POST', '/api/auth/mfa/setup', undefined, body);
  const failures = () =>
    e2e.twin.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'auth.login_failed').orderBy('id').execute();

  const setupChallenge = async (email: string, password?: string): Promise<SetupChallenge> => {
    const res = await login(email, password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'challenge', challenge: 'mfa_setup' });
    return res.body as SetupChallenge;
  };

  /** a users row of the organization (Northwind by default), so a twin user signing in with TWIN_PASSWORD, with no authenticator */
  const newUser = async (organizationId: string = DEMO_ORGANIZATION_IDS.northwind) => {
    const subject = randomUUID();
    const email = `new-${subject.slice(0, 8)}@mfa-setup.example`;
    await e2e.twin.database.db
      .insertInto('users')
      .values({
        organization_id: organizationId,
        idp_subject: subject,
        email,
        display_name: 'New User',
        role: 'investigator',
      })
      .execute();
    return { subject, email };
  };

  test('a user with no authenticator enrols one at sign-in; its tokens work, and later sign-ins ask for its code', async () => {
    const investigator = await newUser();
    const first = await setupChallenge(investigator.email);
    expect(first.secret_code).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.otpauth_uri).toBe(
      `otpauth://totp/Investigation%20Analysis:${encodeURIComponent(investigator.email)}?secret=${first.secret_code}&issuer=Investigation%20Analysis`,
    );

    const done = await setUp({ username: first.username, session: first.session, code: totpCode(first.secret_code) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'signed_in', token_type: 'Bearer' });
    const list = await call('GET', '/api/investigations', done.body.id_token);
    expect(list.status).toBe(200);
    expect(list.body.investigations.length).toBeGreaterThan(0);
    expect((await setUp({ username: first.username, session: first.session, code: totpCode(first.secret_code) })).status).toBe(401); // spent

    const later = await login(investigator.email);
    expect(later.body).toMatchObject({ status: 'challenge', challenge: 'totp', username: first.username });
    expect(later.body.secret_code).toBeUndefined();
    const verified = await answerTotp(call, later.body, totpCode(first.secret_code));
    expect(verified.body.status).toBe('signed_in');
  });

  test('a wrong code is a 401 audited at stage mfa_setup; the session is spent and nothing is enrolled', async () => {
    const harborInvestigator = await newUser(DEMO_ORGANIZATION_IDS.harbor);
    const challenge = await setupChallenge(harborInvestigator.email);
    const before = (await failures()).length;
    const wrongCode = String((Number(totpCode(challenge.secret_code)) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await setUp({ username: challenge.username, session: challenge.session, code: wrongCode });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toMatch(/code is not correct.*sign in again/);
    expect((await failures()).slice(before)).toEqual([
      expect.objectContaining({
        outcome: 'failure',
        actor_address: '127.0.0.1',
        target: `user:${challenge.username}`,
        organization_id: DEMO_ORGANIZATION_IDS.harbor,
        detail: { stage: 'mfa_setup', reason: 'EnableSoftwareTokenMFAException' },
      }),
    ]);
    expect((await setUp({ username: challenge.username, session: challenge.session, code: totpCode(challenge.secret_code) })).status).toBe(
      401,
    );

    // still no authenticator: the next sign-in asks for setup again, with a new secret
    const again = await setupChallenge(harborInvestigator.email);
    expect(again.secret_code).not.toBe(challenge.secret_code);
  });

  test('bad input is a 400 naming the field, audited as a failed attempt with the fields; an unknown session is a 401', async () => {
    const challenge = await setupChallenge((await newUser(DEMO_ORGANIZATION_IDS.harbor)).email);
    const before = (await failures()).length;
    for (const [body, field] of [
      [{ username: challenge.username, session: challenge.session, code: '12345' }, 'code'],
      [{ username: challenge.username, session: challenge.session, code: '1234567' }, 'code'],
      [{ username: challenge.username, code: '123456' }, 'session'],
      [{ session: challenge.session, code: '123456' }, 'username'],
    ] as const) {
      const res = await setUp(body);
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    // each refused body is audited as a failed sign-in step, naming the bad fields (never their values' secrets)
    const invalid = (await failures()).slice(before);
    expect(invalid.map((r) => r.detail)).toEqual([
      { stage: 'mfa_setup', reason: 'invalid_input', fields: ['code'] },
      { stage: 'mfa_setup', reason: 'invalid_input', fields: ['code'] },
      { stage: 'mfa_setup', reason: 'invalid_input', fields: ['session'] },
      { stage: 'mfa_setup', reason: 'invalid_input', fields: ['username'] },
    ]);
    const afterInvalid = before + invalid.length;
    // the refused requests spent nothing: the session still enrols
    expect(
      (await setUp({ username: challenge.username, session: challenge.session, code: totpCode(challenge.secret_code) })).body.status,
    ).toBe('signed_in');

    const unknown = await setUp({ username: challenge.username, session: 'not-a-session', code: '123456' });
    expect(unknown.status).toBe(401);
    expect((await failures()).slice(afterInvalid).map((r) => r.detail)).toEqual([{ stage: 'mfa_setup', reason: 'NotAuthorizedException' }]);
  });

  test('an invited user sets up MFA right after choosing a password', async () => {
    const { subject, email } = await newUser();
    await idp.send(
      new AdminCreateUserCommand({
        UserPoolId: e2e.twin.plan.userPool.id,
        Username: email,
        TemporaryPassword: 'Temporary-Passw0rd!',
        MessageAction: 'SUPPRESS',
      }),
    );
    const invited = await login(email, 'Temporary-Passw0rd!');
    expect(invited.body).toMatchObject({ challenge: 'new_password' });
    const next = await call('POST', '/api/auth/new-password', undefined, {
      username: invited.body.username,
      session: invited.body.session,
      new_password: 'My-Own-Passw0rd!',
    });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ status: 'challenge', challenge: 'mfa_setup', username: subject });
    expect(next.body.otpauth_uri).toContain(encodeURIComponent(email));
    const done = await setUp({ username: next.body.username, session: next.body.session, code: totpCode(next.body.secret_code) });
    expect(done.body.status).toBe('signed_in');
  });

  test('a user who has an authenticator is asked for its code, not to set one up; with MFA optional, one without signs in with the password', async () => {
    const adminChallenge = await login(admin.email);
    expect(adminChallenge.body).toMatchObject({ status: 'challenge', challenge: 'totp' });
    const verified = await answerTotp(call, adminChallenge.body);
    expect(verified.body.status).toBe('signed_in');

    const user = await newUser();
    expect((await login(user.email)).body).toMatchObject({ challenge: 'mfa_setup' });
    await setPoolMfa('OPTIONAL');
    expect((await login(user.email)).body.status).toBe('signed_in');
  });
};
