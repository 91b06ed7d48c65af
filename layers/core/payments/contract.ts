/** The contract of the payment webhook (../contract.ts). */
import { defineRoute } from '#core/contract';
import { paymentEventSchema, webhookResultSchema } from './webhook';
import { ifUsed } from '#core/if-used';

export const paymentWebhookRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/webhooks/payment',
    errors: { 401: 'Missing, bad or stale signature; nothing stored', 503: 'The signing secret is not configured' },
    body: paymentEventSchema,
    response: webhookResultSchema,
  }),
);
