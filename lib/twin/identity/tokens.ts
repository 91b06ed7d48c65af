/**
 * The twin's token issuer, shaped by the synthesized user pool: an RS256 key pair kept in the twin
 * folder (published as the pool's JWKS), and access and ID tokens with exactly the claims a Cognito pool
 * of that configuration issues — access tokens carry no user attributes, ID tokens carry the attributes
 * the app client may read, `cognito:groups` appears only for a member of a group — then changed by the
 * pool's pre-token-generation trigger when the template declares one, invoked in the twin's Lambda
 * runtime with Cognito's V2 event and held to Cognito's rules for its answer.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { ORGANIZATION_ATTRIBUTE } from '#core/auth/token-claims';
import { ADMIN_GROUP } from '#manifest/runtime-names';
import type { Role } from '#core/db/schema';
import type { PlanUserPool } from '../assembly/plan';

const KEY_ID = 'twin-1';

export interface KeyFile {
  privateJwk: JWK;
  publicJwk: JWK;
}

const keyFilePath = (twinDir: string) => join(twinDir, 'idp-keys.json');

export const loadOrCreateKeys = async (twinDir: string): Promise<KeyFile> => {
  const path = keyFilePath(twinDir);
  if (existsSync(path)) return JSON.parse(await readFile(path, 'utf8')) as KeyFile;
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const keys: KeyFile = {
    privateJwk: { ...(await exportJWK(privateKey)), kid: KEY_ID, alg: 'RS256' },
    publicJwk: { ...(await exportJWK(publicKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' },
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(keys), { mode: 0o600 });
  return keys;
};

export const jwksDocument = (keys: KeyFile) => ({ keys: [keys.publicJwk] });

/** A pool user, as the twin knows one (its users table stands in for the pool's directory). */
export interface TokenSubject {
  subject: string;
  email: string;
  role: Role;
  organizationId: string | undefined;
}

export type TriggerSource = 'TokenGeneration_Authentication' | 'TokenGeneration_NewPasswordChallenge' | 'TokenGeneration_RefreshTokens';

/** Cognito's answers when the trigger fails (AdminInitiateAuth and friends surface them). */
export class TriggerError extends Error {
  constructor(
    readonly type: 'UserLambdaValidationException' | 'UnexpectedLambdaException' | 'InvalidLambdaResponseException',
    message: string,
  ) {
    super(message);
  }
}

/** What a function invocation of the trigger gives back (the twin's Lambda runtime). */
export type TriggerInvocation = (
  event: PreTokenGenerationV2TriggerEvent,
) => Promise<{ ok: true; value: unknown } | { ok: false; timedOut: boolean; error: { errorType: string; errorMessage: string } }>;

/** Claims a pre-token-generation trigger may not add, change or suppress (Cognito's documented list). */
const RESTRICTED_CLAIMS = new Set([
  'acr',
  'amr',
  'aud',
  'at_hash',
  'auth_time',
  'azp',
  'client_id',
  'cognito:username',
  'event_id',
  'exp',
  'iat',
  'identities',
  'iss',
  'jti',
  'nbf',
  'nonce',
  'origin_jti',
  'scope',
  'sub',
  'token_use',
  'username',
]);

type Details = {
  claimsToAddOrOverride?: Record<string, unknown>;
  claimsToSuppress?: string[];
  scopesToAdd?: string[];
  scopesToSuppress?: string[];
};
interface V2Response {
  claimsAndScopeOverrideDetails?: {
    idTokenGeneration?: Details;
    accessTokenGeneration?: Details;
    groupOverrideDetails?: { groupsToOverride?: string[] };
  } | null;
}

const override = (claims: JWTPayload, details: Details | undefined): JWTPayload => {
  if (!details) return claims;
  const changed = [...Object.keys(details.claimsToAddOrOverride ?? {}), ...(details.claimsToSuppress ?? [])];
  const refused = changed.filter((claim) => RESTRICTED_CLAIMS.has(claim) || claim.startsWith('cognito:'));
  if (refused.length > 0)
    throw new TriggerError('InvalidLambdaResponseException', `Invalid lambda response: restricted claims ${refused.join(', ')}`);
  const next: JWTPayload = { ...claims, ...details.claimsToAddOrOverride };
  for (const claim of details.claimsToSuppress ?? []) delete next[claim];
  return next;
};

export interface TokenIssuer {
  /** tokens as a sign-in of this user would get them; a negative ttlSeconds gives tokens already expired (tests of the authorizer) */
  issue: (
    who: TokenSubject,
    options?: { ttlSeconds?: number; source?: TriggerSource },
  ) => Promise<{ accessToken: string; idToken: string; expiresIn: number }>;
  /** the pool's claims for a user, before the trigger (what Cognito would write) */
  claims: (who: TokenSubject, now: number) => { access: JWTPayload; id: JWTPayload };
}

export const createTokenIssuer = (options: {
  keys: KeyFile;
  pool: PlanUserPool;
  region: string;
  trigger?: TriggerInvocation;
}): TokenIssuer => {
  const { keys, pool, region } = options;
  const client = pool.clients[0];
  if (!client) throw new Error('the user pool has no app client');
  const groupsOf = (who: TokenSubject) => (who.role === 'admin' && pool.groups.includes(ADMIN_GROUP) ? [ADMIN_GROUP] : []);
  /** attributes the pool's schema declares, as the user has them */
  const attributesOf = (who: TokenSubject): Record<string, string> => ({
    sub: who.subject,
    email: who.email,
    email_verified: 'true',
    ...(who.organizationId &&
      pool.customAttributes.some((a) => a.name === ORGANIZATION_ATTRIBUTE) && { [ORGANIZATION_ATTRIBUTE]: who.organizationId }),
  });
  const readable = (name: string) => client.readAttributes === undefined || client.readAttributes.includes(name);

  const claims: TokenIssuer['claims'] = (who, now) => {
    const groups = groupsOf(who);
    const common = {
      sub: who.subject,
      ...(groups.length > 0 && { 'cognito:groups': groups }),
      iss: pool.issuer,
      origin_jti: randomUUID(),
      event_id: randomUUID(),
      auth_time: now,
      iat: now,
      jti: randomUUID(),
    };
    const attributes = attributesOf(who);
    const idAttributes = Object.fromEntries(
      Object.entries(attributes)
        .filter(([name]) => name !== 'sub' && readable(name))
        .map(([name, value]) => [name, name === 'email_verified' ? value === 'true' : value]),
    );
    return {
      access: {
        ...common,
        client_id: client.id,
        token_use: 'access',
        scope: 'aws.cognito.signin.user.admin',
        exp: now + client.accessTokenMinutes * 60,
        username: who.subject,
      },
      id: {
        ...common,
        ...idAttributes,
        aud: client.id,
        'cognito:username': who.subject,
        token_use: 'id',
        exp: now + client.idTokenMinutes * 60,
      },
    };
  };

  const runTrigger = async (who: TokenSubject, source: TriggerSource, tokens: { access: JWTPayload; id: JWTPayload }) => {
    if (!pool.preTokenGeneration || !options.trigger) return tokens;
    const groups = groupsOf(who);
    const event = {
      version: '2',
      triggerSource: source,
      region,
      userPoolId: pool.id,
      userName: who.subject,
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: client.id },
      request: {
        userAttributes: { ...attributesOf(who), 'cognito:user_status': 'CONFIRMED' },
        groupConfiguration: { groupsToOverride: groups, iamRolesToOverride: [], preferredRole: null },
        scopes: ['aws.cognito.signin.user.admin'],
      },
      response: { claimsAndScopeOverrideDetails: null },
    } as unknown as PreTokenGenerationV2TriggerEvent;
    const outcome = await options.trigger(event);
    if (!outcome.ok) {
      throw outcome.timedOut
        ? new TriggerError('UnexpectedLambdaException', 'PreTokenGeneration invocation failed due to error TimeoutError.')
        : new TriggerError('UserLambdaValidationException', `PreTokenGeneration failed with error ${outcome.error.errorMessage}.`);
    }
    const details = (outcome.value as { response?: V2Response } | null)?.response?.claimsAndScopeOverrideDetails;
    if (!details) return tokens;
    // groupOverrideDetails replaces cognito:groups in both tokens; given empty, it removes them
    const regroup = (payload: JWTPayload): JWTPayload => {
      if (!details.groupOverrideDetails) return payload;
      const groups = details.groupOverrideDetails.groupsToOverride ?? [];
      const rest = { ...payload };
      delete rest['cognito:groups'];
      return groups.length > 0 ? { ...rest, 'cognito:groups': groups } : rest;
    };
    const access = regroup(override(tokens.access, details.accessTokenGeneration));
    const scopes = new Set(String(access.scope).split(' '));
    for (const scope of details.accessTokenGeneration?.scopesToAdd ?? []) scopes.add(scope);
    for (const scope of details.accessTokenGeneration?.scopesToSuppress ?? []) scopes.delete(scope);
    return { access: { ...access, scope: [...scopes].join(' ') }, id: regroup(override(tokens.id, details.idTokenGeneration)) };
  };

  const sign = async (payload: JWTPayload) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: KEY_ID }).sign(await importJWK(keys.privateJwk, 'RS256'));

  return {
    claims,
    issue: async (who, { ttlSeconds, source = 'TokenGeneration_Authentication' } = {}) => {
      const now = Math.floor(Date.now() / 1000);
      const tokens = await runTrigger(who, source, claims(who, ttlSeconds !== undefined && ttlSeconds < 0 ? now + ttlSeconds - 3600 : now));
      const expiry = (payload: JWTPayload) => (ttlSeconds === undefined ? payload : { ...payload, exp: now + ttlSeconds });
      return {
        accessToken: await sign(expiry(tokens.access)),
        idToken: await sign(expiry(tokens.id)),
        expiresIn: client.accessTokenMinutes * 60,
      };
    },
  };
};
