/**
 * POST /api/webhooks/payment (public, signature-checked): a payment processor event, processed once
 * by its id; the first non-zero paid invoice ever writes the one-time milestone (layers/core/payments/).
 */
import { database } from '#core/db/connection';
import { route } from '#core/http/route';
import { paymentWebhookRoute } from '#core/payments/contract';
import { authenticateDelivery } from '#core/payments/delivery';
import { webhookSecret } from '#core/payments/secret';
import { processPaymentEvent } from '#core/payments/webhook';

export const handler = route(paymentWebhookRoute, async ({ event, body }) => {
  authenticateDelivery(event, await webhookSecret());
  return { body: await processPaymentEvent(await database(), body) };
});
