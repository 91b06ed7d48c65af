/**
 * The twin's identity provider: an RS256 key pair kept in the twin folder, a JWKS the twin serves,
 * and tokens shaped like Cognito access tokens (sub, client_id, cognito:groups, the organization
 * custom attribute) so handlers see exactly what they see behind the API Gateway JWT authorizer.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { GROUPS_CLAIM, ORGANIZATION_CLAIM } from '../../layers/core/auth/caller';
import type { Role } from '../../layers/core/db/schema';

export const TWIN_ISSUER = 'https://twin.local/idp';
export const TWIN_CLIENT_ID = 'twin-spa';
const KEY_ID = 'twin-1';

export interface KeyFile { privateJwk: JWK; publicJwk: JWK }

export const keyFilePath = (twinDir: string) => join(twinDir, 'idp-keys.json');

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

export interface TokenSubject {
  subject: string;
  email: string;
  role: Role;
  organizationId: string;
}

/**
 * A token shaped like Cognito's: an access token (`client_id`) or an ID token (`aud`). A negative
 * ttlSeconds gives a token that has already expired (for tests of the authorizer).
 */
export const mintToken = async (keys: KeyFile, who: TokenSubject, ttlSeconds = 3600, use: 'access' | 'id' = 'access'): Promise<string> => {
  const key = await importJWK(keys.privateJwk, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({
    ...(use === 'access' && { client_id: TWIN_CLIENT_ID }),
    token_use: use,
    email: who.email,
    [GROUPS_CLAIM]: who.role === 'admin' ? ['admin'] : ['investigator'],
    [ORGANIZATION_CLAIM]: who.organizationId,
  })
    .setProtectedHeader({ alg: 'RS256', kid: KEY_ID })
    .setSubject(who.subject)
    .setIssuer(TWIN_ISSUER)
    .setIssuedAt(ttlSeconds > 0 ? now : now + ttlSeconds - 3600)
    .setExpirationTime(now + ttlSeconds);
  if (use === 'id') jwt.setAudience(TWIN_CLIENT_ID);
  return jwt.sign(key);
};
