/**
 * Authenticating one webhook delivery from its API Gateway event: the signature is checked on the raw
 * body bytes (API Gateway base64-encodes bodies it takes for binary: isBase64Encoded) before the
 * event is looked at; a delivery that fails changes nothing.
 */
import { DomainError, unavailable } from '#core/errors';
import type { APIGatewayProxyEventV2WithJWTAuthorizer as HttpEvent } from 'aws-lambda';
import { SIGNATURE_HEADER, verifySignature } from './signature';

/** The body exactly as the processor sent it. */
export const rawBody = (event: Pick<HttpEvent, 'body' | 'isBase64Encoded'>): Buffer =>
  Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');

/** Throws 503 when no signing secret is configured, 401 `invalid_signature` (with the reason) when the signature fails. */
export const authenticateDelivery = (event: HttpEvent, secret: string | undefined, nowSeconds = Math.floor(Date.now() / 1000)): void => {
  // the processor retries on 5xx, so deliveries made before the secret is set are not lost
  if (!secret) throw unavailable('The payment webhook has no signing secret configured; the delivery was not processed.');
  const check = verifySignature({ header: event.headers?.[SIGNATURE_HEADER], payload: rawBody(event), secret, nowSeconds });
  if (!check.ok) throw new DomainError('unauthenticated', 'invalid_signature', check.message, { reason: check.reason });
};
