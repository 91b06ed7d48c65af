/**
 * Time-based one-time passwords (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits), for the twin's local
 * identity provider and for tests that answer its MFA challenge. Any authenticator app given the same
 * base32 secret shows the same codes.
 */
import { createHmac, randomBytes } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

const base32Decode = (secret: string): Buffer => {
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not a base32 secret: '${char}'`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
};

/** A secret for a new authenticator, base32 (RFC 4648, no padding) as Cognito's AssociateSoftwareToken gives it. */
export const newTotpSecret = (bytes = randomBytes(20)): string => {
  const bits = [...bytes].map((b) => b.toString(2).padStart(8, '0')).join('');
  return (bits.match(/.{1,5}/g) ?? []).map((chunk) => BASE32[parseInt(chunk.padEnd(5, '0'), 2)]).join('');
};

const STEP_MS = 30_000;

export const totpCode = (secret: string, at = Date.now()): string => {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / STEP_MS)));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
};

/** The code of the current step, or of the step before or after (clock drift, as authenticators allow). */
export const totpMatches = (secret: string, code: string, at = Date.now()): boolean =>
  [-1, 0, 1].some((drift) => totpCode(secret, at + drift * STEP_MS) === code);
