/**
 * The twin's local identity provider: a tiny Cognito-compatible endpoint (AWS JSON 1.1, the
 * operations the /api/auth/* proxies use) that the real CognitoIdentityProviderClient talks to
 * through AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER — the same way the Bedrock stand-in serves the
 * real Bedrock client. Its users are the service's `users` rows; its tokens are signed with the twin's
 * key, so they pass the twin's authorizer like `npm run token` tokens.
 *
 * Local rules (documented in docs/auth.md):
 *   password   every user's password is TWIN_PASSWORD until reset through forgot-password (in memory,
 *              so a restart restores it)
 *   MFA        administrators have a TOTP authenticator enrolled with secret TWIN_TOTP_SECRET;
 *              investigators sign in with the password alone, unless SetUserPoolMfaConfig turned MFA
 *              ON: then a user with no authenticator answers MFA_SETUP after the password, enrolling
 *              one (AssociateSoftwareToken, VerifySoftwareToken with the session; in memory)
 *   passkey    every user has the twin's demo passkey (./passkey.ts), verified with @simplewebauthn/server
 *   reset      forgot-password "sends" a 6-digit code: written to the twin log and kept in `outbox()`
 *   invite     AdminCreateUser creates a pool user (email, `custom:organization_id`; AdminAddUserToGroup
 *              puts it in `admin`), or invites a `users` row again, in FORCE_CHANGE_PASSWORD with a
 *              temporary password (TemporaryPassword, or one generated and "mailed": the log and
 *              `outbox()`): it signs in with that password alone, answers NEW_PASSWORD_REQUIRED, and
 *              has no passkey and no password reset until then. Pool users created here live in
 *              memory; the `users` row the onboarding writes for them outlives a restart
 * Unknown users get the same answers as known ones (Cognito's prevent-user-existence-errors).
 * Operations: AdminInitiateAuth (ADMIN_USER_PASSWORD_AUTH; USER_AUTH with PREFERRED_CHALLENGE
 * WEB_AUTHN), AdminRespondToAuthChallenge (SOFTWARE_TOKEN_MFA, WEB_AUTHN, NEW_PASSWORD_REQUIRED, MFA_SETUP),
 * AssociateSoftwareToken and VerifySoftwareToken (with a Session), AdminCreateUser, AdminAddUserToGroup,
 * AdminDeleteUser, SetUserPoolMfaConfig,
 * ForgotPassword, ConfirmForgotPassword. Errors: status 400, `x-amzn-ErrorType` and
 * `{"__type","message"}`.
 */
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import { ADMIN_GROUP } from '#manifest/runtime-names';
import { ORGANIZATION_ATTRIBUTE } from '#core/auth/token-claims';
import type { Database, Role } from '#core/db/schema';
import { jwksDocument, TriggerError, type KeyFile, type TokenIssuer, type TriggerSource } from './tokens';
import { cosePublicKey, passkeyCredentialId, TWIN_RP_ID, type PasskeyFile } from './passkey';
import { newTotpSecret, totpMatches } from './totp';

/** meets the Cognito pool's policy: 12+ characters, upper and lower case, a digit, a symbol */
export const TWIN_PASSWORD = 'Demo-Password-1!';
/** base32 TOTP secret of every administrator in the twin (add it to any authenticator app) */
export const TWIN_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

/** The twin's own route for dev tokens (`npm run token`); not a Cognito operation, so no function may call it. */
export const TOKENS_PATH = '/_twin/tokens';

const SESSION_MS = 3 * 60_000; // Cognito's sign-in sessions last 3 minutes
const RESET_CODE_MS = 60 * 60_000;
const PASSWORD_POLICY = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z0-9]).{12,}$/;

class IdpError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const notAuthorized = (message = 'Incorrect username or password.') => new IdpError('NotAuthorizedException', message);
const invalidParameter = (message: string) => new IdpError('InvalidParameterException', message);

interface User {
  subject: string;
  email: string;
  role: Role;
  organizationId: string | undefined;
}
interface Session {
  username: string;
  email: string | undefined;
  challenge: 'SOFTWARE_TOKEN_MFA' | 'WEB_AUTHN' | 'NEW_PASSWORD_REQUIRED' | 'MFA_SETUP';
  webauthnChallenge?: string;
  /** MFA_SETUP: the secret AssociateSoftwareToken gave, and whether VerifySoftwareToken accepted a code of it */
  mfaSetup?: { secret: string; verified: boolean };
  expires: number;
}
/** A mail Cognito would send: a password reset code, or an invitation's temporary password. */
interface OutboxMessage {
  kind: 'reset' | 'invitation';
  email: string;
  code: string;
  at: Date;
}

export interface LocalIdentityProviderOptions {
  db: Kysely<Database>;
  keys: KeyFile;
  /** the synthesized pool's id, app client and MFA configuration */
  pool: { userPoolId: string; clientId: string; mfa: 'OFF' | 'ON' | 'OPTIONAL' };
  /** tokens for a signed-in user, as the pool issues them (pre-token-generation trigger included) */
  issuer: TokenIssuer;
  passkey: PasskeyFile;
  /** the SPA's origin, the only one passkey assertions may come from */
  origin: string;
  log?: (line: string) => void;
}

export interface LocalIdentityProvider {
  url: string;
  /** reset codes "sent" so far, oldest first */
  outbox(): OutboxMessage[];
  stop(): Promise<void>;
}

/** A stable stand-in username for an unknown email, shaped like a real one (no user enumeration). */
const phantomSubject = (email: string) => {
  const h = createHash('sha256').update(`twin-phantom:${email}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** takeSession's "no username: the session alone authorizes the call" */
const BY_SESSION = Symbol('by session');

/** A temporary password as Cognito generates one: meets the pool's policy. */
const generatedPassword = () => `Tmp-${randomBytes(9).toString('base64url')}-7a`;

const masked = (email: string) => email.replace(/^(.).*(@.).*$/, '$1***$2***');

export const startLocalIdentityProvider = async (options: LocalIdentityProviderOptions): Promise<LocalIdentityProvider> => {
  const { db, keys, passkey, origin, pool, issuer, log = () => undefined } = options;
  const sessions = new Map<string, Session>();
  const passwords = new Map<string, string>();
  /** temporary passwords of invited users (FORCE_CHANGE_PASSWORD), by email */
  const invited = new Map<string, string>();
  const resets = new Map<string, { code: string; expires: number }>();
  /** TOTP secrets enrolled through MFA_SETUP, by email */
  const authenticators = new Map<string, string>();
  /** the pool's MfaConfiguration is ON (SetUserPoolMfaConfig): a user with no authenticator must enrol one */
  let mfaRequired = pool.mfa === 'ON';
  const outbox: OutboxMessage[] = [];
  /** users AdminCreateUser made (the pool's own record of them: attributes and groups), by email */
  const created = new Map<string, User>();
  /** the WebAuthn library and the passkey's COSE key, loaded on the first passkey sign-in (not at start) */
  let webauthn: Promise<[typeof import('@simplewebauthn/server'), Uint8Array<ArrayBuffer>]> | undefined;
  const loadWebauthn = () => (webauthn ??= Promise.all([import('@simplewebauthn/server'), cosePublicKey(passkey.publicJwk)]));

  const findUser = async (name: string): Promise<User | undefined> => {
    const pooled = created.get(name.toLowerCase()) ?? [...created.values()].find((u) => u.subject === name);
    if (pooled) return pooled;
    const row = await db
      .selectFrom('users')
      .select(['idp_subject', 'email', 'role', 'organization_id'])
      .where((eb) => eb.or([eb('email', '=', name.toLowerCase()), eb('idp_subject', '=', name)]))
      .executeTakeFirst();
    return row && { subject: row.idp_subject, email: row.email, role: row.role, organizationId: row.organization_id ?? undefined };
  };

  const tokens = async (user: User, source?: TriggerSource) => {
    try {
      const { accessToken, idToken, expiresIn } = await issuer.issue(user, { ...(source && { source }) });
      return { AuthenticationResult: { AccessToken: accessToken, IdToken: idToken, ExpiresIn: expiresIn, TokenType: 'Bearer' } };
    } catch (error) {
      if (error instanceof TriggerError) throw new IdpError(error.type, error.message);
      throw error;
    }
  };

  const openSession = (session: Omit<Session, 'expires'>): string => {
    const id = randomBytes(48).toString('base64url');
    sessions.set(id, { ...session, expires: Date.now() + SESSION_MS });
    return id;
  };

  /**
   * A session is used once, whatever the answer (a wrong code means signing in again). `BY_SESSION`:
   * the call names no user, the session alone authorizes it (AssociateSoftwareToken, VerifySoftwareToken).
   */
  const takeSession = (id: unknown, challenge: unknown, username: unknown): Session => {
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (typeof id === 'string') sessions.delete(id);
    if (!session || session.expires < Date.now()) throw notAuthorized('Invalid session for the user, session is expired.');
    if (session.challenge !== challenge || (username !== BY_SESSION && session.username !== username))
      throw notAuthorized('Invalid session for the user.');
    return session;
  };

  const totpSecretOf = (user: User) => authenticators.get(user.email) ?? (user.role === 'admin' ? TWIN_TOTP_SECRET : undefined);

  /** After the password: a user with an authenticator answers the TOTP challenge, one without gets tokens, or MFA_SETUP when MFA is ON. */
  const passwordAccepted = async (user: User, source?: TriggerSource) => {
    const challenge = totpSecretOf(user) ? 'SOFTWARE_TOKEN_MFA' : mfaRequired ? 'MFA_SETUP' : undefined;
    if (!challenge) return tokens(user, source);
    return {
      ChallengeName: challenge,
      ChallengeParameters: {
        USER_ID_FOR_SRP: user.subject,
        ...(challenge === 'MFA_SETUP' && { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' }),
      },
      Session: openSession({ username: user.subject, email: user.email, challenge }),
    };
  };

  function checkPolicy(password: unknown): asserts password is string {
    if (typeof password !== 'string' || !PASSWORD_POLICY.test(password))
      throw new IdpError('InvalidPasswordException', 'Password does not conform to policy.');
  }

  const checkPool = (body: Record<string, unknown>, withPool: boolean) => {
    if (body.ClientId !== pool.clientId) throw new IdpError('ResourceNotFoundException', 'User pool client does not exist.');
    if (withPool && body.UserPoolId !== pool.userPoolId) throw new IdpError('ResourceNotFoundException', 'User pool does not exist.');
  };

  const operations: Record<string, (body: Record<string, unknown>) => Promise<unknown>> = {
    AdminInitiateAuth: async (body) => {
      checkPool(body, true);
      const params = (body.AuthParameters ?? {}) as Record<string, string | undefined>;
      const name = params.USERNAME;
      if (!name) throw invalidParameter('Missing required parameter USERNAME');
      const user = await findUser(name);
      if (body.AuthFlow === 'ADMIN_USER_PASSWORD_AUTH' || body.AuthFlow === 'ADMIN_NO_SRP_AUTH') {
        const temporary = user && invited.get(user.email);
        if (!user || params.PASSWORD !== (temporary ?? passwords.get(user.email) ?? TWIN_PASSWORD)) throw notAuthorized();
        if (temporary === undefined) return passwordAccepted(user);
        return {
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          ChallengeParameters: {
            USER_ID_FOR_SRP: user.subject,
            requiredAttributes: '[]',
            userAttributes: JSON.stringify({ email: user.email }),
          },
          Session: openSession({ username: user.subject, email: user.email, challenge: 'NEW_PASSWORD_REQUIRED' }),
        };
      }
      if (body.AuthFlow === 'USER_AUTH' && params.PREFERRED_CHALLENGE === 'WEB_AUTHN') {
        const email = user?.email ?? name.toLowerCase();
        const [{ generateAuthenticationOptions }] = await loadWebauthn();
        const requestOptions = await generateAuthenticationOptions({
          rpID: TWIN_RP_ID,
          allowCredentials: [{ id: passkeyCredentialId(email) }],
          userVerification: 'preferred',
        });
        const username = user?.subject ?? phantomSubject(email);
        // an invited user has registered no passkey yet: the challenge looks the same and fails at verify
        const holder = user && !invited.has(user.email) ? user.email : undefined;
        return {
          ChallengeName: 'WEB_AUTHN',
          ChallengeParameters: { USERNAME: username, CREDENTIAL_REQUEST_OPTIONS: JSON.stringify(requestOptions) },
          Session: openSession({ username, email: holder, challenge: 'WEB_AUTHN', webauthnChallenge: requestOptions.challenge }),
        };
      }
      throw invalidParameter(
        `The local identity provider supports ADMIN_USER_PASSWORD_AUTH and USER_AUTH with PREFERRED_CHALLENGE WEB_AUTHN, not ${String(body.AuthFlow)}.`,
      );
    },

    AdminRespondToAuthChallenge: async (body) => {
      checkPool(body, true);
      const responses = (body.ChallengeResponses ?? {}) as Record<string, string | undefined>;
      const session = takeSession(body.Session, body.ChallengeName, responses.USERNAME);
      const user = session.email ? await findUser(session.email) : undefined;
      if (session.challenge === 'SOFTWARE_TOKEN_MFA') {
        const secret = user && totpSecretOf(user);
        if (!user || !secret || !totpMatches(secret, responses.SOFTWARE_TOKEN_MFA_CODE ?? ''))
          throw new IdpError('CodeMismatchException', 'Invalid code received for user');
        return tokens(user);
      }
      if (session.challenge === 'MFA_SETUP') {
        if (!user || !session.mfaSetup?.verified) throw notAuthorized('Invalid session for the user.');
        authenticators.set(user.email, session.mfaSetup.secret);
        log(`[twin idp] ${user.email} enrolled a TOTP authenticator`);
        return tokens(user);
      }
      if (session.challenge === 'NEW_PASSWORD_REQUIRED') {
        if (!user || !invited.has(user.email)) throw notAuthorized('Invalid session for the user.');
        checkPolicy(responses.NEW_PASSWORD);
        invited.delete(user.email);
        passwords.set(user.email, responses.NEW_PASSWORD);
        return passwordAccepted(user, 'TokenGeneration_NewPasswordChallenge');
      }
      let credential: AuthenticationResponseJSON;
      try {
        credential = JSON.parse(responses.CREDENTIAL ?? '') as AuthenticationResponseJSON;
      } catch {
        throw invalidParameter('CREDENTIAL is not JSON');
      }
      if (!user || credential.id !== passkeyCredentialId(user.email)) throw notAuthorized('Failed to verify the passkey.');
      const [{ verifyAuthenticationResponse }, publicKey] = await loadWebauthn();
      const verified = await verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: session.webauthnChallenge!,
        expectedOrigin: origin,
        expectedRPID: TWIN_RP_ID,
        credential: { id: credential.id, publicKey, counter: 0 },
        requireUserVerification: false,
      }).catch((error: unknown) => {
        log(`[twin idp] passkey verification failed for ${user.email}: ${(error as Error).message}`);
        return { verified: false };
      });
      if (!verified.verified) throw notAuthorized('Failed to verify the passkey.');
      return tokens(user);
    },

    /** The first step of MFA_SETUP: a new secret for the user's authenticator app. */
    AssociateSoftwareToken: async (body) => {
      if (body.AccessToken !== undefined)
        throw invalidParameter('The local identity provider enrols authenticators during sign-in only: give Session, not AccessToken.');
      const session = takeSession(body.Session, 'MFA_SETUP', BY_SESSION);
      if (session.mfaSetup) throw notAuthorized('Invalid session for the user.');
      const secret = newTotpSecret();
      return { SecretCode: secret, Session: openSession({ ...session, mfaSetup: { secret, verified: false } }) };
    },

    /** The second step of MFA_SETUP: a code from the new authenticator; its session answers the challenge. */
    VerifySoftwareToken: async (body) => {
      if (body.AccessToken !== undefined)
        throw invalidParameter('The local identity provider enrols authenticators during sign-in only: give Session, not AccessToken.');
      const session = takeSession(body.Session, 'MFA_SETUP', BY_SESSION);
      if (!session.mfaSetup || session.mfaSetup.verified) throw notAuthorized('Invalid session for the user.');
      if (!totpMatches(session.mfaSetup.secret, typeof body.UserCode === 'string' ? body.UserCode : '')) {
        throw new IdpError('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA');
      }
      return { Status: 'SUCCESS', Session: openSession({ ...session, mfaSetup: { ...session.mfaSetup, verified: true } }) };
    },

    /** The pool's MFA mode: ON makes every user without an authenticator enrol one at sign-in (Cognito's `-c mfa=required`). */
    SetUserPoolMfaConfig: async (body) => {
      if (body.UserPoolId !== pool.userPoolId) throw new IdpError('ResourceNotFoundException', 'User pool does not exist.');
      if (!['OFF', 'ON', 'OPTIONAL'].includes(String(body.MfaConfiguration)))
        throw invalidParameter('MfaConfiguration must be OFF, ON or OPTIONAL.');
      mfaRequired = body.MfaConfiguration === 'ON';
      log(`[twin idp] MFA ${mfaRequired ? 'required' : 'optional'}`);
      return { MfaConfiguration: body.MfaConfiguration, SoftwareTokenMfaConfiguration: { Enabled: true } };
    },

    /**
     * An invitation: a new pool user from Username (the email: the pool signs in by email) and its
     * attributes, or a seeded `users` row invited again. FORCE_CHANGE_PASSWORD with TemporaryPassword,
     * or a generated one that Cognito would mail (here: the log and the outbox).
     */
    AdminCreateUser: async (body) => {
      if (body.UserPoolId !== pool.userPoolId) throw new IdpError('ResourceNotFoundException', 'User pool does not exist.');
      if (typeof body.Username !== 'string' || body.Username === '') throw invalidParameter('Missing required parameter Username');
      const attributes = new Map(((body.UserAttributes ?? []) as { Name: string; Value: string }[]).map((a) => [a.Name, a.Value]));
      const email = (attributes.get('email') ?? body.Username).toLowerCase();
      if (created.has(email)) throw new IdpError('UsernameExistsException', 'An account with the given email already exists.');
      const user: User = (await findUser(body.Username)) ?? {
        subject: randomUUID(),
        email,
        role: 'investigator',
        organizationId: attributes.get(ORGANIZATION_ATTRIBUTE),
      };
      if (!(await findUser(body.Username))) created.set(email, user);
      const temporary = typeof body.TemporaryPassword === 'string' ? body.TemporaryPassword : generatedPassword();
      checkPolicy(temporary);
      invited.set(user.email, temporary);
      passwords.delete(user.email);
      resets.delete(user.email);
      if (body.TemporaryPassword === undefined) outbox.push({ kind: 'invitation', email: user.email, code: temporary, at: new Date() });
      log(
        `[twin idp] ${user.email} invited (FORCE_CHANGE_PASSWORD)${body.TemporaryPassword === undefined ? `, temporary password ${temporary}` : ''}`,
      );
      const now = Date.now() / 1000;
      return {
        User: {
          Username: user.subject,
          Enabled: true,
          UserStatus: 'FORCE_CHANGE_PASSWORD',
          UserCreateDate: now,
          UserLastModifiedDate: now,
          Attributes: [
            { Name: 'sub', Value: user.subject },
            { Name: 'email', Value: user.email },
            ...(user.organizationId ? [{ Name: ORGANIZATION_ATTRIBUTE, Value: user.organizationId }] : []),
          ],
        },
      };
    },

    /** Group membership of a pool user: the pool has one group, `admin` (the operator role). */
    AdminAddUserToGroup: async (body) => {
      if (body.UserPoolId !== pool.userPoolId) throw new IdpError('ResourceNotFoundException', 'User pool does not exist.');
      if (body.GroupName !== ADMIN_GROUP) throw new IdpError('ResourceNotFoundException', 'Group not found.');
      const user = typeof body.Username === 'string' ? await findUser(body.Username) : undefined;
      if (!user) throw new IdpError('UserNotFoundException', 'User does not exist.');
      if (!created.has(user.email))
        throw invalidParameter(
          "The twin changes the groups of users created through AdminCreateUser only; a seeded user's role is its users row.",
        );
      created.set(user.email, { ...user, role: 'admin' });
      return {};
    },

    AdminDeleteUser: async (body) => {
      if (body.UserPoolId !== pool.userPoolId) throw new IdpError('ResourceNotFoundException', 'User pool does not exist.');
      const user = typeof body.Username === 'string' ? await findUser(body.Username) : undefined;
      if (!user || !created.has(user.email)) throw new IdpError('UserNotFoundException', 'User does not exist.');
      created.delete(user.email);
      invited.delete(user.email);
      passwords.delete(user.email);
      return {};
    },

    ForgotPassword: async (body) => {
      checkPool(body, false);
      const name = typeof body.Username === 'string' ? body.Username : '';
      if (!name) throw invalidParameter('Missing required parameter Username');
      const user = await findUser(name);
      // as in Cognito: an invited user's password cannot be reset before the first sign-in
      if (user && invited.has(user.email)) throw notAuthorized('User password cannot be reset in the current state.');
      if (user) {
        const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
        resets.set(user.email, { code, expires: Date.now() + RESET_CODE_MS });
        outbox.push({ kind: 'reset', email: user.email, code, at: new Date() });
        log(`[twin idp] password reset code for ${user.email}: ${code}`);
      }
      return {
        CodeDeliveryDetails: { Destination: masked(user?.email ?? name.toLowerCase()), DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      };
    },

    ConfirmForgotPassword: async (body) => {
      checkPool(body, false);
      const user = typeof body.Username === 'string' ? await findUser(body.Username) : undefined;
      const reset = user && resets.get(user.email);
      if (!user || !reset || reset.expires < Date.now() || reset.code !== body.ConfirmationCode) {
        throw new IdpError('CodeMismatchException', 'Invalid verification code provided, please try again.');
      }
      checkPolicy(body.Password);
      resets.delete(user.email);
      passwords.set(user.email, body.Password);
      return {};
    },
  };

  const jwksPath = `/${pool.userPoolId}/.well-known/jwks.json`;
  /** `npm run token`: a user's tokens without the password round, issued exactly as a sign-in issues them */
  const issueDevTokens = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { email, ttlSeconds } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { email?: string; ttlSeconds?: number };
      void (async () => {
        const user = email ? await findUser(email) : undefined;
        if (!user) {
          res.writeHead(404, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ message: `no user ${email ?? ''} in the twin` }));
        }
        const tokens = await issuer.issue(user, { ...(ttlSeconds !== undefined && { ttlSeconds }) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(tokens));
      })().catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: (error as Error).message }));
      });
    });
  };
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === jwksPath) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(jwksDocument(keys)));
      return;
    }
    if (req.method === 'POST' && req.url === TOKENS_PATH) return void issueDevTokens(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^AWSCognitoIdentityProviderService\./, '');
      const answer = (status: number, body: unknown, type?: string) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', ...(type && { 'x-amzn-errortype': type }) });
        res.end(JSON.stringify(body));
      };
      const run = operations[operation];
      if (!run)
        return answer(400, { __type: 'UnknownOperationException', message: `Unknown operation ${operation}` }, 'UnknownOperationException');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        return answer(400, { __type: 'SerializationException', message: 'body is not JSON' }, 'SerializationException');
      }
      run(body).then(
        (out) => answer(200, out),
        (error: unknown) => {
          if (error instanceof IdpError) return answer(400, { __type: error.type, message: error.message }, error.type);
          log(`[twin idp] ${operation} failed: ${(error as Error).stack ?? String(error)}`);
          return answer(500, { __type: 'InternalErrorException', message: 'internal error' }, 'InternalErrorException');
        },
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    outbox: () => [...outbox],
    stop: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
};
