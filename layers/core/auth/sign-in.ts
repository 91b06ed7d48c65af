/**
 * Sign-in under /api/auth/: thin proxies to the identity provider — Cognito's server-side API in AWS,
 * the twin's local Cognito-compatible endpoint on a laptop (the same SDK client, pointed at it by
 * AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER). The server-side (Admin*) flows keep the password path
 * behind this API, so every attempt passes the rate limiter and every failure is audited, and they
 * hand Cognito the caller's real address for threat protection.
 *
 * Failures answer without telling whether the account exists: a wrong password and an unknown email
 * are the same 401; forgot-password answers the same whether or not the account exists.
 */
import {
  AdminInitiateAuthCommand,
  AdminRespondToAuthChallengeCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  VerifySoftwareTokenCommand,
  type AdminInitiateAuthCommandOutput,
  type ChallengeNameType,
  type ContextDataType,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Kysely } from 'kysely';
import type * as z from 'zod';
import { writeAudit } from '#core/audit/audit';
import { countAccountAttempt } from './account-limit';
import { requestOrigin, type RequestOrigin } from './origin';
import { cognitoClient } from '#core/aws/cognito';
import { requireEnv, ENV } from '#core/config';
import { database } from '#core/db/connection';
import type { Database } from '#core/db/schema';
import { DomainError, invalid, unauthenticated, unavailable } from '#core/errors';
import type {
  forgotPasswordBodySchema,
  loginBodySchema,
  mfaBodySchema,
  mfaSetupBodySchema,
  newPasswordBodySchema,
  SignInResponse,
  webauthnBodySchema,
} from './contract';
import { isUnsafeText } from '#core/strings';
import { logger } from '#core/logger';
import { tooManyRequests } from '#core/ratelimit/limits';

export const LOGIN_FAILED = 'auth.login_failed';
export const WEBAUTHN_VERIFY = 'auth.webauthn.authenticate.verify';

/** The part of the SDK client the proxies use (tests hand in a fake). */
export type IdentityProviderClient = Pick<CognitoIdentityProviderClient, 'send'>;

export interface SignInDeps {
  db: Kysely<Database>;
  idp: IdentityProviderClient;
  userPoolId: string;
  clientId: string;
}

/** Where the request came from: audited as the actor's address and passed to Cognito's threat protection. */
export const signInDeps = (db: Kysely<Database>): SignInDeps => ({
  db,
  idp: cognitoClient(),
  userPoolId: requireEnv(ENV.userPoolId),
  clientId: requireEnv(ENV.userPoolClientId),
});

/** MFA_SETUP: a pool that requires MFA, for a user with no authenticator yet (enrolled through /api/auth/mfa/setup) */
const CHALLENGES = {
  SOFTWARE_TOKEN_MFA: 'totp',
  SMS_MFA: 'sms',
  WEB_AUTHN: 'passkey',
  NEW_PASSWORD_REQUIRED: 'new_password',
  MFA_SETUP: 'mfa_setup',
} as const;
const CHALLENGE_NAMES = { totp: 'SOFTWARE_TOKEN_MFA', sms: 'SMS_MFA' } as const;

/** Identity-provider errors that mean "these credentials (or this code, or this session) are not good". */
const REJECTIONS = new Set([
  'NotAuthorizedException',
  'UserNotFoundException',
  'UserNotConfirmedException',
  'PasswordResetRequiredException',
  'CodeMismatchException',
  'ExpiredCodeException',
  'WebAuthnChallengeNotFoundException',
  'WebAuthnClientMismatchException',
  'WebAuthnCredentialNotSupportedException',
  'WebAuthnOriginNotAllowedException',
  'WebAuthnRelyingPartyMismatchException',
  'InvalidParameterException',
  'EnableSoftwareTokenMFAException',
  'SoftwareTokenMFANotFoundException',
]);
const THROTTLES = new Set(['TooManyRequestsException', 'TooManyFailedAttemptsException', 'LimitExceededException']);
/** Identity-provider errors refusing a new password (the pool's policy, or one of the last 5 passwords) */
const PASSWORD_REFUSALS = new Set(['InvalidPasswordException', 'PasswordHistoryPolicyViolationException']);
/** the pool's policy (lib/stacks/identity-stack.ts), named in every refusal of a new password */
const PASSWORD_POLICY =
  'The new password does not meet the password policy: at least 12 characters with upper and lower case letters, ' +
  'a digit and a symbol, and none of your last 5 passwords.';
/** Cognito names no wait; a minute is what its per-user lockout starts at */
const IDP_RETRY_AFTER_SECONDS = 60;

const nameOf = (error: unknown): string => (error instanceof Error ? error.name : 'Error');

/** An identity-provider failure that is not about the credentials: busy (429) or unavailable (503). */
const providerTrouble = (error: unknown, what: string): DomainError => {
  if (THROTTLES.has(nameOf(error)))
    return tooManyRequests('Too many sign-in attempts; wait a minute and try again.', IDP_RETRY_AFTER_SECONDS);
  logger.error('identity provider call failed', { what, error: error as Error });
  return unavailable('Sign-in is unavailable right now; try again shortly.');
};

/** The `users` row an email or an identity-provider username names, if any. */
const knownUser = (db: Kysely<Database>, name: string) =>
  db
    .selectFrom('users')
    .select(['id', 'organization_id', 'email'])
    .where((eb) => eb.or([eb('email', '=', name.toLowerCase()), eb('idp_subject', '=', name)]))
    .executeTakeFirst();

/** The audit row of a failed step; the user's id and organization when the name is a known user. */
const auditFailure = async (db: Kysely<Database>, action: string, name: string, origin: RequestOrigin, detail: Record<string, unknown>) => {
  const lower = name.toLowerCase();
  // the audit row matters more than its user link; a name PostgreSQL cannot hold names no user
  const user = name === '' || isUnsafeText(name) ? undefined : await knownUser(db, name).catch(() => undefined);
  await writeAudit(db, {
    action,
    outcome: 'failure',
    actorUserId: user?.id ?? null,
    actorAddress: origin.sourceIp,
    organizationId: user?.organization_id ?? null,
    target: name === '' ? null : `user:${lower}`,
    detail,
  });
};

/**
 * The sign-in routes' `refused` hook: an invalid body (a NUL in the email, a missing password, not JSON, …)
 * is still a failed sign-in attempt, audited under `action` — the name as sent, stored escaped by the audit
 * writer — before its 400 `validation_failed` (or 415) goes back.
 */
export const auditRefusedSignIn =
  (audit: { action: string; stage: string }, connect = database) =>
  async (attempt: { content: unknown; event: Parameters<typeof requestOrigin>[0] }, refusal: DomainError): Promise<void> => {
    const { content } = attempt;
    const fields = content !== null && typeof content === 'object' && !Array.isArray(content) ? (content as Record<string, unknown>) : {};
    const name = [fields.email, fields.username].find((v): v is string => typeof v === 'string') ?? '';
    const invalid = Array.isArray(refusal.details) ? (refusal.details as { path?: unknown }[]).map((d) => String(d.path ?? '')) : [];
    await auditFailure(await connect(), audit.action, name, requestOrigin(attempt.event), {
      stage: audit.stage,
      reason: 'invalid_input',
      fields: invalid,
    });
  };

const contextData = (origin: RequestOrigin): ContextDataType => ({
  IpAddress: origin.sourceIp,
  ServerName: origin.serverName,
  ServerPath: origin.serverPath,
  HttpHeaders: [{ headerName: 'user-agent', headerValue: origin.userAgent }],
});

const unsupported = (challenge: string | undefined) => {
  logger.error('identity provider asked for a challenge the sign-in proxies do not answer', { challenge });
  return new DomainError(
    'conflict',
    'challenge_unsupported',
    `This account needs a sign-in step this API does not offer (${challenge ?? 'none'}); contact an administrator.`,
  );
};

type ProviderAnswer = Pick<AdminInitiateAuthCommandOutput, 'AuthenticationResult' | 'ChallengeName' | 'ChallengeParameters' | 'Session'>;

/** Tokens, or the next challenge, from an InitiateAuth/RespondToAuthChallenge answer. */
const toResponse = (out: ProviderAnswer, name: string): SignInResponse => {
  const result = out.AuthenticationResult;
  if (result?.AccessToken && result.IdToken) {
    return {
      status: 'signed_in',
      access_token: result.AccessToken,
      id_token: result.IdToken,
      ...(result.RefreshToken && { refresh_token: result.RefreshToken }),
      expires_in: result.ExpiresIn ?? 3600,
      token_type: 'Bearer',
    };
  }
  const challenge = out.ChallengeName && CHALLENGES[out.ChallengeName as keyof typeof CHALLENGES];
  if (!challenge || !out.Session) throw unsupported(out.ChallengeName);
  const params = out.ChallengeParameters ?? {};
  return {
    status: 'challenge',
    challenge,
    username: params.USER_ID_FOR_SRP ?? params.USERNAME ?? name,
    session: out.Session,
    ...(challenge === 'passkey' &&
      params.CREDENTIAL_REQUEST_OPTIONS && {
        credential_request_options: JSON.parse(params.CREDENTIAL_REQUEST_OPTIONS) as Record<string, unknown>,
      }),
  };
};

/** the name authenticator apps show next to the account */
const TOTP_ISSUER = 'Investigation Analysis';

/** The otpauth:// key URI (the QR code's content) of a TOTP secret, labelled with the account's email when known. */
const otpauthUri = (secret: string, account: string): string =>
  `otpauth://totp/${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(account)}?secret=${secret}&issuer=${encodeURIComponent(TOTP_ISSUER)}`;

/**
 * The answer to the client. MFA_SETUP starts enrolling a TOTP authenticator: AssociateSoftwareToken,
 * authorized by the sign-in session alone (no IAM grant), gives the secret and the session that
 * /api/auth/mfa/setup continues. Only TOTP can be set up here (the pool offers no SMS).
 */
const nextStep = async ({ db, idp }: SignInDeps, out: ProviderAnswer, name: string): Promise<SignInResponse> => {
  const response = toResponse(out, name);
  if (response.status !== 'challenge' || response.challenge !== 'mfa_setup') return response;
  if (!(out.ChallengeParameters?.MFAS_CAN_SETUP ?? '').includes('SOFTWARE_TOKEN_MFA'))
    throw unsupported('MFA_SETUP without SOFTWARE_TOKEN_MFA');
  const associated = await idp.send(new AssociateSoftwareTokenCommand({ Session: response.session }));
  if (!associated.SecretCode || !associated.Session) throw new Error('AssociateSoftwareToken answered no secret or session');
  const account = (await knownUser(db, response.username))?.email ?? name;
  return {
    ...response,
    session: associated.Session,
    secret_code: associated.SecretCode,
    otpauth_uri: otpauthUri(associated.SecretCode, account),
  };
};

/**
 * Runs one identity-provider step; a rejection is audited under `action` and answered 401 with
 * `message` (the same whatever the reason), a refused new password is audited and answered 400 with
 * `badPassword`, trouble with the provider is a 429 or 503.
 */
const step = async (
  { db }: SignInDeps,
  origin: RequestOrigin,
  audit: { action: string; name: string; stage: string },
  { message, badPassword = PASSWORD_POLICY }: { message: string; badPassword?: string },
  call: () => Promise<SignInResponse>,
): Promise<SignInResponse> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const reason = nameOf(error);
    const rejected = REJECTIONS.has(reason);
    const refusedPassword = PASSWORD_REFUSALS.has(reason);
    if (rejected || refusedPassword || THROTTLES.has(reason))
      await auditFailure(db, audit.action, audit.name, origin, { stage: audit.stage, reason });
    if (rejected) throw unauthenticated(message);
    if (refusedPassword) throw invalid(badPassword);
    throw providerTrouble(error, audit.stage);
  }
};

const WRONG_CREDENTIALS = 'The email address or password is not correct.';

/**
 * POST /api/auth/login: password sign-in (tokens, an MFA challenge, or for an invited user signing in
 * with the temporary password the new_password challenge), or the start of a passkey sign-in.
 */
export const login = async (deps: SignInDeps, input: z.infer<typeof loginBodySchema>, origin: RequestOrigin): Promise<SignInResponse> => {
  const passkey = input.method === 'passkey';
  // the per-account counter (./account-limit.ts), next to the rate limiter's per-address one
  const refused = await countAccountAttempt(deps.db, input.email);
  if (refused) {
    await auditFailure(deps.db, passkey ? WEBAUTHN_VERIFY : LOGIN_FAILED, input.email, origin, {
      stage: passkey ? 'passkey_start' : 'password',
      reason: 'account_rate_limited',
    });
    throw refused;
  }
  return step(
    deps,
    origin,
    { action: passkey ? WEBAUTHN_VERIFY : LOGIN_FAILED, name: input.email, stage: passkey ? 'passkey_start' : 'password' },
    { message: passkey ? 'Passkey sign-in is not available for this account.' : WRONG_CREDENTIALS },
    async () => {
      const out = await deps.idp.send(
        new AdminInitiateAuthCommand({
          UserPoolId: deps.userPoolId,
          ClientId: deps.clientId,
          ...(passkey
            ? { AuthFlow: 'USER_AUTH', AuthParameters: { USERNAME: input.email, PREFERRED_CHALLENGE: 'WEB_AUTHN' } }
            : { AuthFlow: 'ADMIN_USER_PASSWORD_AUTH', AuthParameters: { USERNAME: input.email, PASSWORD: input.password! } }),
          ContextData: contextData(origin),
        }),
      );
      const response = await nextStep(deps, out, input.email);
      // a passkey start must end in the passkey challenge (not, say, a password prompt)
      if (passkey && !(response.status === 'challenge' && response.challenge === 'passkey')) {
        throw Object.assign(new Error('no passkey challenge'), { name: 'NotAuthorizedException' });
      }
      return response;
    },
  );
};

/** Answers a challenge of the sign-in session as `username`, and moves on to what Cognito answers (tokens or the next challenge). */
const answerChallenge = async (
  deps: SignInDeps,
  origin: RequestOrigin,
  username: string,
  session: string,
  challenge: ChallengeNameType,
  responses: Record<string, string>,
): Promise<SignInResponse> =>
  nextStep(
    deps,
    await deps.idp.send(
      new AdminRespondToAuthChallengeCommand({
        UserPoolId: deps.userPoolId,
        ClientId: deps.clientId,
        ChallengeName: challenge,
        Session: session,
        ChallengeResponses: { USERNAME: username, ...responses },
        ContextData: contextData(origin),
      }),
    ),
    username,
  );

/** POST /api/auth/mfa/verify: the code of a totp or sms challenge. */
export const verifyMfa = (deps: SignInDeps, input: z.infer<typeof mfaBodySchema>, origin: RequestOrigin): Promise<SignInResponse> =>
  step(
    deps,
    origin,
    { action: LOGIN_FAILED, name: input.username, stage: input.challenge },
    { message: 'The code is not correct, or the sign-in has expired; sign in again.' },
    async () =>
      answerChallenge(deps, origin, input.username, input.session, CHALLENGE_NAMES[input.challenge], {
        [input.challenge === 'totp' ? 'SOFTWARE_TOKEN_MFA_CODE' : 'SMS_MFA_CODE']: input.code,
      }),
  );

/** POST /api/auth/webauthn/authenticate/verify: the passkey assertion answering a passkey challenge. */
export const verifyPasskey = (
  deps: SignInDeps,
  input: z.infer<typeof webauthnBodySchema>,
  origin: RequestOrigin,
): Promise<SignInResponse> =>
  step(
    deps,
    origin,
    { action: WEBAUTHN_VERIFY, name: input.username, stage: 'passkey_verify' },
    { message: 'The passkey could not be verified; sign in again.' },
    async () => answerChallenge(deps, origin, input.username, input.session, 'WEB_AUTHN', { CREDENTIAL: JSON.stringify(input.credential) }),
  );

/**
 * POST /api/auth/new-password: an invited user's first sign-in, replacing the temporary password
 * (NEW_PASSWORD_REQUIRED). Answers tokens or the next challenge. The session is spent whatever the
 * answer, so after a refused password the user signs in again with the temporary one.
 */
export const setNewPassword = (
  deps: SignInDeps,
  input: z.infer<typeof newPasswordBodySchema>,
  origin: RequestOrigin,
): Promise<SignInResponse> =>
  step(
    deps,
    origin,
    { action: LOGIN_FAILED, name: input.username, stage: 'new_password' },
    {
      message: 'The sign-in has expired or is not valid; sign in again with your temporary password.',
      badPassword: `${PASSWORD_POLICY} Sign in again with your temporary password and choose another one.`,
    },
    async () => answerChallenge(deps, origin, input.username, input.session, 'NEW_PASSWORD_REQUIRED', { NEW_PASSWORD: input.new_password }),
  );

/**
 * POST /api/auth/mfa/setup: the first code of the authenticator enrolled at the mfa_setup challenge.
 * VerifySoftwareToken (authorized by the session alone) checks it and enables TOTP for the user; its
 * session answers MFA_SETUP, and from then on the user gets the totp challenge at sign-in.
 */
export const setUpMfa = (deps: SignInDeps, input: z.infer<typeof mfaSetupBodySchema>, origin: RequestOrigin): Promise<SignInResponse> =>
  step(
    deps,
    origin,
    { action: LOGIN_FAILED, name: input.username, stage: 'mfa_setup' },
    { message: 'The code is not correct, or the sign-in has expired; sign in again.' },
    async () => {
      const verified = await deps.idp.send(new VerifySoftwareTokenCommand({ Session: input.session, UserCode: input.code }));
      // Cognito may answer ERROR rather than throw; either way the code did not enrol the authenticator
      if (verified.Status !== 'SUCCESS' || !verified.Session)
        throw Object.assign(new Error('code not verified'), { name: 'EnableSoftwareTokenMFAException' });
      return answerChallenge(deps, origin, input.username, verified.Session, 'MFA_SETUP', {});
    },
  );

export const RESET_CODE_SENT = 'If an account exists for this email address, a reset code has been sent to it.';

/**
 * POST /api/auth/forgot-password. Without a code: sends a reset code, answering the same whether or
 * not the account exists (every refusal is logged, none is shown). With code and new_password: sets it.
 */
export const forgotPassword = async (
  deps: SignInDeps,
  input: z.infer<typeof forgotPasswordBodySchema>,
): Promise<{ status: 'code_sent' | 'password_reset'; message: string }> => {
  if (input.code === undefined || input.new_password === undefined) {
    try {
      await deps.idp.send(new ForgotPasswordCommand({ ClientId: deps.clientId, Username: input.email }));
    } catch (error) {
      if (!REJECTIONS.has(nameOf(error)) && !THROTTLES.has(nameOf(error))) throw providerTrouble(error, 'forgot_password');
      logger.warn('forgot-password request refused by the identity provider', { reason: nameOf(error) });
    }
    return { status: 'code_sent', message: RESET_CODE_SENT };
  }
  try {
    await deps.idp.send(
      new ConfirmForgotPasswordCommand({
        ClientId: deps.clientId,
        Username: input.email,
        ConfirmationCode: input.code,
        Password: input.new_password,
      }),
    );
  } catch (error) {
    if (PASSWORD_REFUSALS.has(nameOf(error))) throw invalid(PASSWORD_POLICY);
    if (REJECTIONS.has(nameOf(error))) throw invalid('The reset code is not valid or has expired; ask for a new one.');
    throw providerTrouble(error, 'confirm_forgot_password');
  }
  return { status: 'password_reset', message: 'Your password has been changed; sign in with the new one.' };
};
