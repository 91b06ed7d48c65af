/**
 * The twin's demo passkey: one P-256 key pair kept in the twin folder (idp-passkey.json), registered
 * for every user of the local identity provider under a credential id derived from the user's email.
 * There is no browser authenticator on a laptop's command line, so `signPasskeyAssertion` plays the
 * authenticator: it answers a passkey challenge with a real WebAuthn assertion (authenticator data,
 * client data, ES256 signature), which the local provider verifies like any relying party would.
 */
import { createHash, createPrivateKey, generateKeyPairSync, sign, type JsonWebKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface PasskeyFile {
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
}

/** The relying party of the twin's passkeys (the SPA runs on localhost). */
export const TWIN_RP_ID = 'localhost';

const passkeyFilePath = (twinDir: string) => join(twinDir, 'idp-passkey.json');

export const loadOrCreatePasskey = async (twinDir: string): Promise<PasskeyFile> => {
  const path = passkeyFilePath(twinDir);
  if (existsSync(path)) return JSON.parse(await readFile(path, 'utf8')) as PasskeyFile;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keys: PasskeyFile = { privateJwk: privateKey.export({ format: 'jwk' }), publicJwk: publicKey.export({ format: 'jwk' }) };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(keys), { mode: 0o600 });
  return keys;
};

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

/** The credential id of a user's demo passkey (base64url). */
export const passkeyCredentialId = (email: string): string => b64url(sha256(`twin-passkey:${email.toLowerCase()}`).subarray(0, 16));

/**
 * The public key in COSE form (EC2, P-256, ES256), as a relying party stores it at registration. The WebAuthn
 * library is loaded on the first passkey sign-in, not at twin start (it is a large share of the start-up's imports).
 */
export const cosePublicKey = async (publicJwk: JsonWebKey): Promise<Uint8Array<ArrayBuffer>> => {
  const { isoCBOR } = await import('@simplewebauthn/server/helpers');
  return new Uint8Array(
    isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(publicJwk.x!, 'base64url')],
        [-3, Buffer.from(publicJwk.y!, 'base64url')],
      ]),
    ),
  );
};

export interface AssertionRequest {
  passkey: PasskeyFile;
  email: string;
  /** the `challenge` of the credential request options (base64url) */
  challenge: string;
  /** the page the browser would be on, e.g. http://localhost:5173 */
  origin: string;
  rpId?: string;
}

/** A WebAuthn assertion (PublicKeyCredential JSON) for the user's demo passkey. */
export const signPasskeyAssertion = ({ passkey, email, challenge, origin, rpId = TWIN_RP_ID }: AssertionRequest) => {
  const flags = Buffer.from([0x05]); // user present + user verified
  const authenticatorData = Buffer.concat([sha256(rpId), flags, Buffer.alloc(4)]); // sign count 0: the passkey keeps none
  const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false }));
  const signature = sign(
    'sha256',
    Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
    createPrivateKey({ key: passkey.privateJwk, format: 'jwk' }),
  );
  const id = passkeyCredentialId(email);
  return {
    id,
    rawId: id,
    type: 'public-key' as const,
    response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature) },
    clientExtensionResults: {},
  };
};
