/**
 * POST /api/webhooks/payment (public, signature-checked): a payment processor event, processed once
 * by its id; the first non-zero paid invoice ever writes the one-time milestone (layers/core/payments/).
 */
import { database } from '../../layers/core/db/connection';
import { contracts } from '../../layers/core/http/contracts';
import { httpRoute, parseWith } from '../../layers/core/http/route';
import { authenticateDelivery } from '../../layers/core/payments/delivery';
import { webhookSecret } from '../../layers/core/payments/secret';
import { processPaymentEvent } from '../../layers/core/payments/webhook';

export const handler = httpRoute(async ({ event, body }) => {
  authenticateDelivery(event, await webhookSecret());
  const paymentEvent = parseWith(contracts['payment-webhook'].body, body);
  return { body: await processPaymentEvent(await database(), paymentEvent) };
});
