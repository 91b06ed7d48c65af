/**
 * The one token verifier (API Gateway's JWT authorizer in the twin, and the in-handler check of cron
 * routes): signature, issuer, `exp` required and in the future, and an audience that is mandatory —
 * `aud` (ID tokens) or `client_id` (access tokens) must name a configured app client, and with none
 * configured no token passes.
 */
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { InvalidTokenError, verifyAccessToken, verifyToken } from '#core/auth/jwt';
import { ENV } from '#core/config';
import { setEnv } from '../support/config-env';

const ISSUER = 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_test';
const CLIENT = 'client-abc';
let keys: JWTVerifyGetKey;
let sign: (payload: JWTPayload) => Promise<string>;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] });
  sign = (payload) => new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey);
});

const now = () => Math.floor(Date.now() / 1000);
const access = (extra: JWTPayload = {}): JWTPayload => ({
  sub: 'u1',
  iss: ISSUER,
  client_id: CLIENT,
  token_use: 'access',
  exp: now() + 600,
  ...extra,
});
const verify = async (payload: JWTPayload, audience: string[] = [CLIENT]) =>
  verifyToken(await sign(payload), keys, { issuer: ISSUER, audience });

test('an access token (client_id) and an ID token (aud) of the configured client pass', async () => {
  await expect(verify(access())).resolves.toMatchObject({ sub: 'u1' });
  const { client_id: _, ...id } = access({ token_use: 'id' });
  await expect(verify({ ...id, aud: CLIENT })).resolves.toMatchObject({ token_use: 'id' });
});

test.each<[string, JWTPayload]>([
  [
    'no exp (it would never expire)',
    (() => {
      const { exp: _, ...p } = access();
      return p;
    })(),
  ],
  ['expired', access({ exp: now() - 120 })],
  ['another issuer', access({ iss: 'https://elsewhere.example' })],
  ['another app client', access({ client_id: 'client-other' })],
  [
    'no client_id nor aud',
    (() => {
      const { client_id: _, ...p } = access();
      return p;
    })(),
  ],
])('refused: %s', async (_, payload) => {
  await expect(verify(payload)).rejects.toBeInstanceOf(InvalidTokenError);
});

test('the audience is mandatory: with none configured (empty list or empty string) every token is refused', async () => {
  await expect(verify(access(), [])).rejects.toThrow(/no audience is configured/);
  await expect(verify(access(), [''])).rejects.toThrow(/no audience is configured/);
});

test('in a handler, JWT_AUDIENCE unset refuses every token before any key is fetched', async () => {
  const saved = { issuer: process.env[ENV.jwtIssuer], audience: process.env[ENV.jwtAudience] };
  setEnv({ [ENV.jwtIssuer]: 'http://127.0.0.1:9/unreachable', [ENV.jwtAudience]: undefined });
  try {
    await expect(verifyAccessToken(await sign(access()))).rejects.toThrow(/no audience is configured/);
  } finally {
    setEnv({ [ENV.jwtIssuer]: saved.issuer, [ENV.jwtAudience]: saved.audience });
  }
});
