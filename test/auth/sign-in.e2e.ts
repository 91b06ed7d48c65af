/**
 * Sign-in through the twin's HTTP API: the /api/auth/* proxies drive the real Cognito SDK client
 * against the twin's local Cognito-compatible provider. Password sign-in, the TOTP step, passkey
 * verification with a real WebAuthn assertion, forgot-password, an invited user's first sign-in
 * (new password); failures audited without the password; no user enumeration; the tokens work on the
 * other routes. PGlite, or real PostgreSQL
 * with TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import { AdminCreateUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { Role } from '#core/db/schema';
import { DEMO_ORGANIZATION_IDS, demoUser } from '#core/seed/demo';
import { TWIN_PASSWORD, TWIN_TOTP_SECRET } from '../../lib/twin/identity/provider';
import { loadOrCreatePasskey, signPasskeyAssertion, type PasskeyFile } from '../../lib/twin/identity/passkey';
import { totpCode } from '../../lib/twin/identity/totp';
import { answerTotp, type TwinTest } from '../support/twin';

export const signingIn = (e2e: TwinTest): void => {
  // this file signs in far more often than the anonymous sign-in limit allows one address (test/ratelimit covers that)
  const { call } = e2e;
  const investigator = demoUser('investigator');
  const admin = demoUser('admin');
  const ORIGIN = 'http://localhost:5173'; // the twin's default SPA origin
  let passkey: PasskeyFile;

  beforeAll(async () => {
    passkey = await loadOrCreatePasskey(e2e.twin.twinDir);
  });

  const auditRows = (action: string) =>
    e2e.twin.database.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

  const login = (body: unknown) => call('POST', '/api/auth/login', undefined, body);

  test('password sign-in returns tokens that work on the other routes', async () => {
    const res = await login({ email: investigator.email.toUpperCase(), password: TWIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'signed_in', token_type: 'Bearer', expires_in: 3600 });
    for (const token of [res.body.access_token, res.body.id_token]) {
      const list = await call('GET', '/api/investigations', token);
      expect(list.status).toBe(200);
      expect(list.body.investigations.length).toBeGreaterThan(0);
    }
  });

  test('a wrong password and an unknown email get the same 401; each is audited with the address, never the password', async () => {
    const before = (await auditRows('auth.login_failed')).length;
    const wrong = await login({ email: investigator.email, password: 'Not-the-password-9!' });
    const unknown = await login({ email: 'nobody@example.com', password: 'Not-the-password-9!' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.error.message).toMatch(/email address or password is not correct/);

    const rows = (await auditRows('auth.login_failed')).slice(before);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      outcome: 'failure',
      actor_address: '127.0.0.1',
      target: `user:${investigator.email}`,
      organization_id: investigator.organization_id,
    });
    expect(rows[0]!.actor_user_id).not.toBeNull();
    expect(rows[1]).toMatchObject({
      outcome: 'failure',
      actor_address: '127.0.0.1',
      target: 'user:nobody@example.com',
      actor_user_id: null,
    });
    expect(JSON.stringify(rows)).not.toContain('Not-the-password-9!');
  });

  test('bad input is a 400 naming each field; an invalid sign-in step is still audited as a failed attempt, a NUL stored escaped', async () => {
    const before = (await e2e.twin.database.db.selectFrom('audit_log').select('id').execute()).length;
    const cases: [string, unknown, string][] = [
      ['/api/auth/login', { email: 'not-an-email', password: 'x' }, 'email'],
      ['/api/auth/login', { email: investigator.email }, 'password'],
      ['/api/auth/login', { email: investigator.email, password: 'x', extra: 1 }, ''],
      ['/api/auth/login', { email: 'a\u0000b@example.com', password: 'x' }, 'email'],
      ['/api/auth/mfa/verify', { username: 'u', session: 's', challenge: 'totp', code: '12ab56' }, 'code'],
      ['/api/auth/webauthn/authenticate/verify', { username: 'u', session: 's', credential: { id: 'x' } }, 'credential.rawId'],
      ['/api/auth/new-password', { username: 'u\uD800', session: 's' }, 'new_password'],
      ['/api/auth/forgot-password', { email: investigator.email, code: '123456' }, 'new_password'],
    ];
    for (const [path, body, field] of cases) {
      const res = await call('POST', path, undefined, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    expect((await call('POST', '/api/auth/login', undefined, undefined)).status).toBe(400);
    const rows = (await e2e.twin.database.db.selectFrom('audit_log').selectAll().orderBy('id').execute()).slice(before);
    // every sign-in step audited (forgot-password is not a sign-in), the invalid names escaped as literal text
    expect(rows.map((r) => [r.action, r.target])).toEqual([
      ['auth.login_failed', 'user:not-an-email'],
      ['auth.login_failed', `user:${investigator.email}`],
      ['auth.login_failed', `user:${investigator.email}`],
      ['auth.login_failed', 'user:a\\u0000b@example.com'],
      ['auth.login_failed', 'user:u'],
      ['auth.webauthn.authenticate.verify', 'user:u'],
      ['auth.login_failed', 'user:u\\ud800'],
      ['auth.login_failed', null],
    ]);
    expect(rows.every((r) => r.outcome === 'failure' && r.actor_address === '127.0.0.1')).toBe(true);
    expect(await e2e.twin.database.db.selectFrom('audit_failures').selectAll().execute()).toEqual([]);
  });

  test('administrators answer a TOTP challenge; a wrong code is a 401, audited, and the session is spent', async () => {
    const first = await login({ email: admin.email, password: TWIN_PASSWORD });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'challenge', challenge: 'totp', username: admin.idp_subject });
    expect(first.body.access_token).toBeUndefined();

    const before = (await auditRows('auth.login_failed')).length;
    const wrongCode = String((Number(totpCode(TWIN_TOTP_SECRET)) + 500_000) % 1_000_000).padStart(6, '0');
    const wrong = await answerTotp(call, first.body, wrongCode);
    expect(wrong.status).toBe(401);
    const [row] = (await auditRows('auth.login_failed')).slice(before);
    expect(row).toMatchObject({
      outcome: 'failure',
      actor_address: '127.0.0.1',
      detail: expect.objectContaining({ stage: 'totp', reason: 'CodeMismatchException' }),
    });
    const spent = await answerTotp(call, first.body);
    expect(spent.status).toBe(401);

    const again = await login({ email: admin.email, password: TWIN_PASSWORD });
    const ok = await answerTotp(call, again.body);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('signed_in');
    // an admin token: admin routes let it in, where an investigator's token is refused
    const investigatorToken = (await login({ email: investigator.email, password: TWIN_PASSWORD })).body.access_token;
    expect((await call('GET', '/api/admin/settings', investigatorToken)).status).toBe(403);
    expect([401, 403]).not.toContain((await call('GET', '/api/admin/settings', ok.body.access_token)).status);
  });

  describe('passkeys', () => {
    const start = async (email: string) => {
      const res = await login({ email, method: 'passkey' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'challenge', challenge: 'passkey' });
      return res.body as {
        username: string;
        session: string;
        credential_request_options: { challenge: string; rpId: string; allowCredentials: unknown[] };
      };
    };
    const verify = (body: unknown) => call('POST', '/api/auth/webauthn/authenticate/verify', undefined, body);

    test('a valid assertion signs in; replaying it is refused and audited', async () => {
      const challenge = await start(investigator.email);
      expect(challenge.credential_request_options).toMatchObject({
        rpId: 'localhost',
        allowCredentials: [expect.objectContaining({ type: 'public-key' })],
      });
      const credential = signPasskeyAssertion({
        passkey,
        email: investigator.email,
        challenge: challenge.credential_request_options.challenge,
        origin: ORIGIN,
      });
      const ok = await verify({ username: challenge.username, session: challenge.session, credential });
      expect(ok.status).toBe(200);
      expect((await call('GET', '/api/investigations', ok.body.access_token)).status).toBe(200);

      const before = (await auditRows('auth.webauthn.authenticate.verify')).length;
      const replay = await verify({ username: challenge.username, session: challenge.session, credential });
      expect(replay.status).toBe(401);
      const [row] = (await auditRows('auth.webauthn.authenticate.verify')).slice(before);
      expect(row).toMatchObject({ outcome: 'failure', actor_address: '127.0.0.1', organization_id: investigator.organization_id });
    });

    test('a bad signature, another origin or an unknown user fail with the same 401, each audited', async () => {
      const before = (await auditRows('auth.webauthn.authenticate.verify')).length;
      const answers = [];

      const tampered = await start(investigator.email);
      const credential = signPasskeyAssertion({
        passkey,
        email: investigator.email,
        challenge: tampered.credential_request_options.challenge,
        origin: ORIGIN,
      });
      const signature = Buffer.from(credential.response.signature, 'base64url');
      signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0xff, signature.length - 1);
      answers.push(
        await verify({
          username: tampered.username,
          session: tampered.session,
          credential: { ...credential, response: { ...credential.response, signature: signature.toString('base64url') } },
        }),
      );

      const phished = await start(investigator.email);
      answers.push(
        await verify({
          username: phished.username,
          session: phished.session,
          credential: signPasskeyAssertion({
            passkey,
            email: investigator.email,
            challenge: phished.credential_request_options.challenge,
            origin: 'https://evil.example',
          }),
        }),
      );

      const nobody = await start('nobody@example.com'); // answered like a real account
      expect(nobody.credential_request_options.allowCredentials).toHaveLength(1);
      answers.push(
        await verify({
          username: nobody.username,
          session: nobody.session,
          credential: signPasskeyAssertion({
            passkey,
            email: 'nobody@example.com',
            challenge: nobody.credential_request_options.challenge,
            origin: ORIGIN,
          }),
        }),
      );

      expect(answers.map((a) => a.status)).toEqual([401, 401, 401]);
      expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
      const rows = (await auditRows('auth.webauthn.authenticate.verify')).slice(before);
      expect(rows.map((r) => r.outcome)).toEqual(['failure', 'failure', 'failure']);
    });
  });

  test('forgot-password answers the same whether or not the account exists; the code sets a new password', async () => {
    const harbor = demoUser('investigator', DEMO_ORGANIZATION_IDS.harbor);
    const outbox = () => e2e.twin.identityProvider.outbox().filter((m) => m.email === harbor.email);
    const known = await call('POST', '/api/auth/forgot-password', undefined, { email: harbor.email });
    const unknown = await call('POST', '/api/auth/forgot-password', undefined, { email: 'nobody@example.com' });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(e2e.twin.identityProvider.outbox().map((m) => m.email)).not.toContain('nobody@example.com');
    const [message] = outbox();
    expect(message!.code).toMatch(/^\d{6}$/);

    const confirm = (code: string, newPassword: string, email = harbor.email) =>
      call('POST', '/api/auth/forgot-password', undefined, { email, code, new_password: newPassword });
    const otherCode = String((Number(message!.code) + 1) % 1_000_000).padStart(6, '0');
    expect((await confirm(otherCode, 'Brand-New-Passw0rd!')).status).toBe(400);
    expect((await confirm(message!.code, 'Brand-New-Passw0rd!', 'nobody@example.com')).status).toBe(400);
    const weak = await confirm(message!.code, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.error.message).toMatch(/password policy/);
    // none of the refusals changed the password
    expect((await login({ email: harbor.email, password: TWIN_PASSWORD })).status).toBe(200);

    const done = await confirm(message!.code, 'Brand-New-Passw0rd!');
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('password_reset');
    expect((await login({ email: harbor.email, password: TWIN_PASSWORD })).status).toBe(401);
    expect((await login({ email: harbor.email, password: 'Brand-New-Passw0rd!' })).status).toBe(200);
    expect((await confirm(message!.code, 'Another-Passw0rd!')).status).toBe(400); // a code is used once
  });

  describe("an invited user's first sign-in", () => {
    const TEMPORARY = 'Temporary-Passw0rd!';
    const CHOSEN = 'My-Own-Passw0rd!';
    const setPassword = (body: unknown) => call('POST', '/api/auth/new-password', undefined, body);

    /** a users row, invited the way an administrator would: AdminCreateUser through the real SDK client */
    const invite = async (role: Role) => {
      const subject = randomUUID();
      const email = `invited-${subject.slice(0, 8)}@northwind.example`;
      await e2e.twin.database.db
        .insertInto('users')
        .values({
          organization_id: role === 'admin' ? null : DEMO_ORGANIZATION_IDS.northwind,
          idp_subject: subject,
          email,
          display_name: 'Invited User',
          role,
        })
        .execute();
      const idp = new CognitoIdentityProviderClient({
        endpoint: e2e.twin.identityProvider.url,
        region: 'us-east-1',
        credentials: { accessKeyId: 'twin', secretAccessKey: 'twin-secret' },
      });
      const created = await idp.send(
        new AdminCreateUserCommand({
          UserPoolId: e2e.twin.plan.userPool.id,
          Username: email,
          TemporaryPassword: TEMPORARY,
          MessageAction: 'SUPPRESS',
        }),
      );
      expect(created.User).toMatchObject({ Username: subject, UserStatus: 'FORCE_CHANGE_PASSWORD' });
      return { subject, email };
    };

    const challenge = async (email: string) => {
      const res = await login({ email, password: TEMPORARY });
      expect(res.status).toBe(200);
      return res.body as { status: string; challenge: string; username: string; session: string; access_token?: string };
    };

    test('the temporary password leads to the new_password challenge; the new password signs in, and only it', async () => {
      const user = await invite('investigator');
      expect((await login({ email: user.email, password: TWIN_PASSWORD })).status).toBe(401); // no password but the temporary one
      const first = await challenge(user.email);
      expect(first).toMatchObject({ status: 'challenge', challenge: 'new_password', username: user.subject });
      expect(first.access_token).toBeUndefined();

      const ok = await setPassword({ username: first.username, session: first.session, new_password: CHOSEN });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: 'signed_in', token_type: 'Bearer' });
      const list = await call('GET', '/api/investigations', ok.body.id_token);
      expect(list.status).toBe(200);
      expect(list.body.investigations.length).toBeGreaterThan(0);

      expect((await setPassword({ username: first.username, session: first.session, new_password: 'Another-Passw0rd!' })).status).toBe(401); // spent
      expect((await login({ email: user.email, password: TEMPORARY })).status).toBe(401);
      expect((await login({ email: user.email, password: CHOSEN })).body.status).toBe('signed_in');
    });

    test('a password that breaks the policy is a 400 naming it, audited without the password, and changes nothing', async () => {
      const user = await invite('investigator');
      const first = await challenge(user.email);
      const before = (await auditRows('auth.login_failed')).length;
      const weak = await setPassword({ username: first.username, session: first.session, new_password: 'weakpassword' });
      expect(weak.status).toBe(400);
      expect(weak.body.error.message).toMatch(
        /password policy: at least 12 characters with upper and lower case letters, a digit and a symbol/,
      );

      const rows = (await auditRows('auth.login_failed')).slice(before);
      expect(rows).toEqual([
        expect.objectContaining({
          outcome: 'failure',
          actor_address: '127.0.0.1',
          target: `user:${user.subject}`,
          organization_id: DEMO_ORGANIZATION_IDS.northwind,
          detail: { stage: 'new_password', reason: 'InvalidPasswordException' },
        }),
      ]);
      expect(rows[0]!.actor_user_id).not.toBeNull();
      expect(JSON.stringify(rows)).not.toContain('weakpassword');
      // still invited: the weak password signs nobody in, the temporary one still leads to the challenge
      expect((await login({ email: user.email, password: 'weakpassword' })).status).toBe(401);
      expect(await challenge(user.email)).toMatchObject({ challenge: 'new_password' });
    });

    test("an invalid session, or another user's, is a 401, audited, and changes nothing", async () => {
      const user = await invite('investigator');
      const other = await invite('investigator');
      const otherChallenge = await challenge(other.email);
      const before = (await auditRows('auth.login_failed')).length;
      const answers = [
        await setPassword({ username: user.subject, session: 'not-a-session', new_password: CHOSEN }),
        await setPassword({ username: user.subject, session: otherChallenge.session, new_password: CHOSEN }),
      ];
      expect(answers.map((a) => a.status)).toEqual([401, 401]);
      expect(answers[0]!.body.error.message).toMatch(/sign in again with your temporary password/);
      const rows = (await auditRows('auth.login_failed')).slice(before);
      expect(rows.map((r) => [r.target, r.detail])).toEqual([
        [`user:${user.subject}`, { stage: 'new_password', reason: 'NotAuthorizedException' }],
        [`user:${user.subject}`, { stage: 'new_password', reason: 'NotAuthorizedException' }],
      ]);
      expect((await login({ email: user.email, password: CHOSEN })).status).toBe(401);
      expect(await challenge(user.email)).toMatchObject({ challenge: 'new_password' });
    });

    test('an invited administrator answers the TOTP challenge after the new password', async () => {
      const user = await invite('admin');
      const first = await challenge(user.email);
      const next = await setPassword({ username: first.username, session: first.session, new_password: CHOSEN });
      expect(next.status).toBe(200);
      expect(next.body).toMatchObject({ status: 'challenge', challenge: 'totp', username: user.subject });
      const ok = await answerTotp(call, next.body);
      expect(ok.body.status).toBe('signed_in');
      // an operator: the admin routes, and no organization's investigations
      expect((await call('GET', '/api/admin/users', ok.body.access_token)).status).toBe(200);
      expect((await call('GET', '/api/investigations', ok.body.access_token)).status).toBe(403);
    });

    test('before the first sign-in there is no password reset and no passkey (each answered as usual)', async () => {
      const user = await invite('investigator');
      const res = await call('POST', '/api/auth/forgot-password', undefined, { email: user.email });
      expect(res.status).toBe(202);
      expect(e2e.twin.identityProvider.outbox().map((m) => m.email)).not.toContain(user.email);

      const start = await login({ email: user.email, method: 'passkey' });
      expect(start.body).toMatchObject({ status: 'challenge', challenge: 'passkey' });
      const credential = signPasskeyAssertion({
        passkey,
        email: user.email,
        challenge: start.body.credential_request_options.challenge,
        origin: ORIGIN,
      });
      expect(
        (
          await call('POST', '/api/auth/webauthn/authenticate/verify', undefined, {
            username: start.body.username,
            session: start.body.session,
            credential,
          })
        ).status,
      ).toBe(401);
    });
  });
};
