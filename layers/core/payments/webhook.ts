/**
 * Payment processor events (POST /api/webhooks/payment), after their signature was checked:
 * - each event is processed once: its id is payment_events' primary key, so a redelivery (the processor
 *   retries until it gets a 2xx) or a concurrent duplicate inserts nothing and answers `duplicate: true`;
 * - the first non-zero paid invoice ever writes the one-time milestone `first_paid_invoice` (milestones'
 *   primary key makes it exactly once, even across concurrent deliveries of different events) and logs
 *   `[MILESTONE] first_paid_invoice`.
 * The event row and the milestone commit together, so a failure leaves neither and the retry does both.
 * The processor's event shape is Stripe's (`id`, `type`, `data.object`); other event types are recorded
 * and acknowledged, nothing more.
 */
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '#core/db/schema';
import { logger } from '#core/logger';
import { ifUsed } from '#core/if-used';

const PAID_INVOICE_EVENTS = ['invoice.paid', 'invoice.payment_succeeded'] as const;
export const FIRST_PAID_INVOICE = 'first_paid_invoice';

const PAID = new Set<string>(PAID_INVOICE_EVENTS);

export const paymentEventSchema = /* @__PURE__ */ ifUsed(() =>
  z
    .looseObject({
      id: z.string().min(1).max(255),
      type: z.string().min(1).max(255),
      data: z.looseObject({
        object: z.looseObject({
          id: z.string().max(255).optional(),
          /** smallest currency unit (cents) */
          amount_paid: z.number().int().nonnegative().optional(),
          currency: z.string().min(1).max(16).optional(),
        }),
      }),
    })
    .superRefine((event, ctx) => {
      if (PAID.has(event.type) && event.data.object.amount_paid === undefined) {
        ctx.addIssue({ code: 'custom', path: ['data', 'object', 'amount_paid'], message: `required for ${event.type} events` });
      }
    }),
);

export type PaymentEvent = z.infer<typeof paymentEventSchema>;

export const webhookResultSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    received: z.literal(true),
    event_id: z.string(),
    duplicate: z.boolean().describe('the event was already processed; nothing changed'),
    milestone: z.literal(FIRST_PAID_INVOICE).nullable().describe('set on the delivery that reached the first non-zero paid invoice'),
  }),
);

export type WebhookResult = z.infer<typeof webhookResultSchema>;

/** Pure: the amount (cents) this event pays, 0 unless it is a paid invoice. */
const paidAmount = (event: PaymentEvent): number => (PAID.has(event.type) ? (event.data.object.amount_paid ?? 0) : 0);

export const processPaymentEvent = async (db: Kysely<Database>, event: PaymentEvent): Promise<WebhookResult> => {
  const amount = paidAmount(event);
  const currency = event.data.object.currency?.toLowerCase() ?? null;
  const outcome = await db.transaction().execute(async (trx) => {
    const stored = await trx
      .insertInto('payment_events')
      .values({ event_id: event.id, event_type: event.type, amount_cents: amount, currency, payload: JSON.stringify(event) })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!stored) return { duplicate: true, milestone: false };
    if (amount <= 0) return { duplicate: false, milestone: false };
    const reached = await trx
      .insertInto('milestones')
      .values({
        key: FIRST_PAID_INVOICE,
        detail: JSON.stringify({ event_id: event.id, invoice_id: event.data.object.id ?? null, amount_cents: amount, currency }),
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    return { duplicate: false, milestone: reached !== undefined };
  });
  if (outcome.duplicate) logger.info('payment event already processed', { eventId: event.id, eventType: event.type });
  else logger.info('payment event processed', { eventId: event.id, eventType: event.type, amountCents: amount, currency });
  if (outcome.milestone) logger.info(`[MILESTONE] ${FIRST_PAID_INVOICE}`, { eventId: event.id, amountCents: amount, currency });
  return { received: true, event_id: event.id, duplicate: outcome.duplicate, milestone: outcome.milestone ? FIRST_PAID_INVOICE : null };
};
