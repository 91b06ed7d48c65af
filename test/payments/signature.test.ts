/**
 * Stripe-style webhook signatures (pure): a known vector, the raw bytes are what is signed, several v1
 * entries, missing/malformed headers, a wrong secret or altered body, and the 5-minute tolerance both
 * ways; the base64-encoded body API Gateway may hand over; and the delivery check's HTTP errors.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { HttpEvent } from '#core/http/route';
import { DomainError } from '#core/errors';
import { authenticateDelivery, rawBody } from '#core/payments/delivery';
import { parseSignatureHeader, signatureHeader, SIGNATURE_TOLERANCE_SECONDS, verifySignature } from '#core/payments/signature';

const SECRET = 'whsec_test_secret';
const T = 1_700_000_000;
const BODY = Buffer.from('{"id":"evt_1","type":"invoice.paid"}');

test('the signature is the hex HMAC-SHA256 of "<t>.<body>" under the secret', () => {
  const expected = createHmac('sha256', SECRET).update(`${T}.${BODY.toString()}`).digest('hex');
  expect(signatureHeader(SECRET, T, BODY)).toBe(`t=${T},v1=${expected}`);
  expect(verifySignature({ header: `t=${T},v1=${expected}`, payload: BODY, secret: SECRET, nowSeconds: T })).toEqual({
    ok: true,
    timestamp: T,
  });
});

test('any of several v1 signatures may match (secret rolling); other schemes are ignored', () => {
  const good = signatureHeader(SECRET, T, BODY).split(',')[1];
  const header = `t=${T},v0=abc,v1=${'0'.repeat(64)},${good}`;
  expect(verifySignature({ header, payload: BODY, secret: SECRET, nowSeconds: T }).ok).toBe(true);
});

test.each([
  [undefined, 'missing'],
  ['', 'missing'],
  ['v1=abc', 'malformed'],
  [`t=${T}`, 'malformed'],
  [`t=soon,v1=${'a'.repeat(64)}`, 'malformed'],
  [`t=${T},v1=zz`, 'malformed'],
  ['garbage', 'malformed'],
])('header %j → %s', (header, reason) => {
  expect(verifySignature({ header, payload: BODY, secret: SECRET, nowSeconds: T })).toMatchObject({ ok: false, reason });
});

test('a wrong secret or any change to the body is a mismatch', () => {
  const header = signatureHeader(SECRET, T, BODY);
  expect(verifySignature({ header, payload: BODY, secret: 'whsec_other', nowSeconds: T })).toMatchObject({ ok: false, reason: 'mismatch' });
  expect(verifySignature({ header, payload: Buffer.from(`${BODY.toString()} `), secret: SECRET, nowSeconds: T })).toMatchObject({
    ok: false,
    reason: 'mismatch',
  });
  // the timestamp is signed too: moving it breaks the signature
  expect(verifySignature({ header: header.replace(`t=${T}`, `t=${T + 1}`), payload: BODY, secret: SECRET, nowSeconds: T })).toMatchObject({
    ok: false,
    reason: 'mismatch',
  });
});

test('the timestamp must be within 5 minutes of now, either way', () => {
  const header = signatureHeader(SECRET, T, BODY);
  const at = (nowSeconds: number) => verifySignature({ header, payload: BODY, secret: SECRET, nowSeconds });
  expect(SIGNATURE_TOLERANCE_SECONDS).toBe(300);
  expect(at(T + 300).ok).toBe(true);
  expect(at(T - 300).ok).toBe(true);
  expect(at(T + 301)).toMatchObject({ ok: false, reason: 'stale' });
  expect(at(T - 301)).toMatchObject({ ok: false, reason: 'stale' });
});

test('property: a signed payload verifies; a different payload does not', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), fc.string({ minLength: 1 }), (a, b, secret) => {
      const header = signatureHeader(secret, T, Buffer.from(a));
      expect(verifySignature({ header, payload: Buffer.from(a), secret, nowSeconds: T }).ok).toBe(true);
      if (!Buffer.from(a).equals(Buffer.from(b)))
        expect(verifySignature({ header, payload: Buffer.from(b), secret, nowSeconds: T }).ok).toBe(false);
    }),
  );
});

test('parseSignatureHeader tolerates spaces around entries', () => {
  expect(parseSignatureHeader(` t=${T} , v1=${'A'.repeat(64)} `)).toEqual({
    timestamp: T,
    signatures: [Buffer.from('A'.repeat(64), 'hex')],
  });
});

describe('authenticateDelivery', () => {
  const event = (body: string, header: string | undefined, isBase64Encoded = false) =>
    ({ body, isBase64Encoded, headers: header === undefined ? {} : { 'stripe-signature': header } }) as unknown as HttpEvent;
  const now = Math.floor(Date.now() / 1000);

  test('the raw body is the signed one, also when API Gateway base64-encoded it', () => {
    const text = '{"id":"evt_ü","type":"invoice.paid"}';
    const header = signatureHeader(SECRET, now, text);
    expect(rawBody(event(Buffer.from(text).toString('base64'), header, true)).toString()).toBe(text);
    expect(() => authenticateDelivery(event(text, header), SECRET)).not.toThrow();
    expect(() => authenticateDelivery(event(Buffer.from(text).toString('base64'), header, true), SECRET)).not.toThrow();
  });

  test('a failed signature is a 401 invalid_signature naming the reason; no secret configured is a 503', () => {
    const attempt = (fn: () => void) => {
      try {
        fn();
      } catch (error) {
        return error as DomainError;
      }
      throw new Error('expected a refusal');
    };
    const bad = attempt(() => authenticateDelivery(event('{}', signatureHeader('whsec_wrong', now, '{}')), SECRET));
    expect(bad).toMatchObject({ kind: 'unauthenticated', code: 'invalid_signature', details: { reason: 'mismatch' } });
    const stale = attempt(() => authenticateDelivery(event('{}', signatureHeader(SECRET, now - 600, '{}')), SECRET));
    expect(stale).toMatchObject({ kind: 'unauthenticated', code: 'invalid_signature', details: { reason: 'stale' } });
    expect(attempt(() => authenticateDelivery(event('{}', undefined), SECRET))).toMatchObject({
      kind: 'unauthenticated',
      details: { reason: 'missing' },
    });
    expect(attempt(() => authenticateDelivery(event('{}', signatureHeader(SECRET, now, '{}')), undefined))).toMatchObject({
      kind: 'unavailable',
      code: 'unavailable',
    });
  });
});
