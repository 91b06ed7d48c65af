/**
 * Webhook signatures, Stripe's scheme (pure, no I/O): the processor sends
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the signing secret>`
 * (several v1 entries while it rolls its secret; any may match). The signature covers the exact bytes
 * received, so it is checked on the raw body, never on re-serialised JSON. The timestamp must be within
 * the tolerance of our clock, either way, so a captured delivery cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'stripe-signature';
export const SIGNATURE_TOLERANCE_SECONDS = 300;

type SignatureFailure = 'missing' | 'malformed' | 'mismatch' | 'stale';

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailure; message: string };

const signPayload = (secret: string, timestamp: number, payload: Buffer): Buffer =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest();

/** The header value the processor would send for this payload (tests, and local tools that post deliveries). */
export const signatureHeader = (secret: string, timestamp: number, payload: Buffer | string): string =>
  `t=${timestamp},v1=${signPayload(secret, timestamp, Buffer.from(payload)).toString('hex')}`;

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** Pure: `t` and the v1 signatures of a header value, or undefined when it is not of that shape. */
export const parseSignatureHeader = (value: string): { timestamp: number; signatures: Buffer[] } | undefined => {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return undefined;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(val)) return undefined;
      timestamp = Number(val);
    } else if (key === 'v1' && HEX_SHA256.test(val)) {
      signatures.push(Buffer.from(val, 'hex'));
    }
    // other schemes (v0, …) are ignored, as the processor's own libraries do
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
};

export interface VerifyInput {
  header: string | undefined;
  payload: Buffer;
  secret: string;
  /** our clock, unix seconds */
  nowSeconds: number;
  toleranceSeconds?: number;
}

export const verifySignature = ({
  header,
  payload,
  secret,
  nowSeconds,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
}: VerifyInput): SignatureCheck => {
  if (!header) return { ok: false, reason: 'missing', message: 'The Stripe-Signature header is missing.' };
  const parsed = parseSignatureHeader(header);
  if (!parsed)
    return {
      ok: false,
      reason: 'malformed',
      message: 'The Stripe-Signature header is not of the form t=<unix seconds>,v1=<hex HMAC-SHA256>.',
    };
  const expected = signPayload(secret, parsed.timestamp, payload);
  // every candidate is compared (constant time each), so timing does not tell which one matched
  const matched = parsed.signatures.map((s) => timingSafeEqual(s, expected)).includes(true);
  if (!matched) return { ok: false, reason: 'mismatch', message: 'The signature does not match the payload and the signing secret.' };
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) {
    return {
      ok: false,
      reason: 'stale',
      message: `The signature timestamp is more than ${toleranceSeconds} s away from the current time; the delivery is refused as a possible replay.`,
    };
  }
  return { ok: true, timestamp: parsed.timestamp };
};
