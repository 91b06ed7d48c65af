/**
 * Verifies access tokens the way the API Gateway JWT authorizer does: signature against the issuer's
 * JWKS, issuer, expiry (`exp` required), and audience (mandatory) — Cognito access tokens carry the app client in `client_id`, ID
 * tokens in `aud`, and the authorizer accepts either. The twin's authorizer and in-handler checks (cron
 * routes accept an admin token) share this one verifier.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { env, ENV, requireEnv } from '#core/config';

let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

/** The issuer's keys, where Cognito publishes them: `<issuer>/.well-known/jwks.json`. */
const keySet = () => {
  jwks ??= createRemoteJWKSet(new URL(`${requireEnv(ENV.jwtIssuer)}/.well-known/jwks.json`));
  return jwks;
};

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/**
 * A token's payload if its signature, issuer, expiry and audience hold. `exp` is required (a token
 * without one would never expire; Cognito always sets it), and so is an audience to check against:
 * with none configured every token is refused, rather than any app client's token accepted.
 */
export const verifyToken = async (
  token: string,
  keys: JWTVerifyGetKey,
  expected: { issuer: string; audience: readonly string[] },
): Promise<JWTPayload> => {
  const audience = expected.audience.filter((a) => a !== '');
  if (audience.length === 0) throw new InvalidTokenError('no audience is configured to check the token against');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keys, { issuer: expected.issuer, requiredClaims: ['exp'] }));
  } catch (error) {
    throw new InvalidTokenError(error instanceof Error ? error.message : 'invalid token');
  }
  const auds = [payload.aud, payload.client_id].flat().filter((a): a is string => typeof a === 'string');
  if (!auds.some((a) => audience.includes(a))) throw new InvalidTokenError('token audience does not match');
  return payload;
};

/** In a handler: a token of the pool the function's JWT_ISSUER / JWT_AUDIENCE name; without JWT_AUDIENCE no token passes. */
export const verifyAccessToken = (token: string): Promise<JWTPayload> =>
  verifyToken(token, keySet(), { issuer: requireEnv(ENV.jwtIssuer), audience: [env(ENV.jwtAudience) ?? ''] });

export const bearerToken = (authorization: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return match?.[1];
};
