/**
 * Verifies access tokens the way the API Gateway JWT authorizer does: signature against the issuer's
 * JWKS, issuer, expiry, and audience — Cognito access tokens carry the app client in `client_id`, ID
 * tokens in `aud`, and the authorizer accepts either. The twin's authorizer and in-handler checks (cron
 * routes accept an admin token) share this one verifier.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { env, ENV, requireEnv } from '../config';

let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
let jwksFor: string | undefined;

const keySet = () => {
  const url = env(ENV.jwksUrl) ?? `${requireEnv(ENV.jwtIssuer)}/.well-known/jwks.json`;
  if (!jwks || jwksFor !== url) {
    jwks = createRemoteJWKSet(new URL(url));
    jwksFor = url;
  }
  return jwks;
};

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

export const verifyAccessToken = async (token: string): Promise<JWTPayload> => {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySet(), { issuer: requireEnv(ENV.jwtIssuer) }));
  } catch (error) {
    throw new InvalidTokenError(error instanceof Error ? error.message : 'invalid token');
  }
  const audience = env(ENV.jwtAudience);
  if (audience) {
    const auds = [payload.aud, payload.client_id].flat().filter((a): a is string => typeof a === 'string');
    if (!auds.includes(audience)) throw new InvalidTokenError('token audience does not match');
  }
  return payload;
};

export const bearerToken = (authorization: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
};
