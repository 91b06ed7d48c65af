/**
 * Payment events against the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): stored
 * once, a replay is a duplicate that changes nothing, the first non-zero paid invoice writes the
 * milestone exactly once (also under concurrent deliveries), a zero-amount invoice and other event
 * types never do; and the event shape the webhook accepts.
 */
import { logger } from '#core/logger';
import { FIRST_PAID_INVOICE, paymentEventSchema, processPaymentEvent, type PaymentEvent } from '#core/payments/webhook';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();

let seq = 0;
const invoice = (amount: number, type = 'invoice.paid'): PaymentEvent =>
  paymentEventSchema.parse({ id: `evt_${++seq}`, type, data: { object: { id: `in_${seq}`, amount_paid: amount, currency: 'USD' } } });

const events = () => db.selectFrom('payment_events').selectAll().orderBy('received_at').execute();
const milestones = () => db.selectFrom('milestones').selectAll().execute();

beforeEach(async () => {
  await db.deleteFrom('payment_events').execute();
  await db.deleteFrom('milestones').execute();
});

test('an event is stored once; its replay is a duplicate that changes nothing', async () => {
  const event = invoice(0, 'customer.created');
  expect(await processPaymentEvent(db, event)).toEqual({ received: true, event_id: event.id, duplicate: false, milestone: null });
  const [stored] = await events();
  expect(stored).toMatchObject({ event_id: event.id, event_type: 'customer.created', currency: 'usd', payload: event });
  expect(Number(stored!.amount_cents)).toBe(0);

  const replay = { ...event, data: { object: { ...event.data.object, currency: 'eur' } } };
  expect(await processPaymentEvent(db, replay)).toEqual({ received: true, event_id: event.id, duplicate: true, milestone: null });
  expect(await events()).toEqual([stored]);
});

test('a zero-amount paid invoice is recorded but sets no milestone; the first non-zero one does, once', async () => {
  const info = jest.spyOn(logger, 'info');
  expect((await processPaymentEvent(db, invoice(0))).milestone).toBeNull();
  expect(await milestones()).toEqual([]);

  const first = invoice(4900, 'invoice.payment_succeeded');
  expect(await processPaymentEvent(db, first)).toEqual({
    received: true,
    event_id: first.id,
    duplicate: false,
    milestone: FIRST_PAID_INVOICE,
  });
  const [milestone] = await milestones();
  expect(milestone).toMatchObject({
    key: FIRST_PAID_INVOICE,
    detail: { event_id: first.id, invoice_id: first.data.object.id, amount_cents: 4900, currency: 'usd' },
  });
  expect(info).toHaveBeenCalledWith(`[MILESTONE] ${FIRST_PAID_INVOICE}`, { eventId: first.id, amountCents: 4900, currency: 'usd' });

  // a second paid invoice, and a replay of the first, leave it as it was
  expect((await processPaymentEvent(db, invoice(12_000))).milestone).toBeNull();
  expect(await processPaymentEvent(db, first)).toMatchObject({ duplicate: true, milestone: null });
  expect(await milestones()).toEqual([milestone]);
  expect(info.mock.calls.filter(([message]) => message === `[MILESTONE] ${FIRST_PAID_INVOICE}`)).toHaveLength(1);
  expect(await events()).toHaveLength(3);
  info.mockRestore();
});

test('an amount on an event that is not a paid invoice never reaches the milestone', async () => {
  const refund = paymentEventSchema.parse({ id: 'evt_refund', type: 'charge.refunded', data: { object: { amount_paid: 500 } } });
  expect((await processPaymentEvent(db, refund)).milestone).toBeNull();
  expect(await milestones()).toEqual([]);
  expect(Number((await events())[0]!.amount_cents)).toBe(0);
});

test('concurrent deliveries: one milestone among different first invoices, one row for the same event', async () => {
  const results = await Promise.all([invoice(100), invoice(200), invoice(300)].map((e) => processPaymentEvent(db, e)));
  expect(results.filter((r) => r.milestone === FIRST_PAID_INVOICE)).toHaveLength(1);
  expect(await milestones()).toHaveLength(1);

  const same = invoice(700);
  const twice = await Promise.all([processPaymentEvent(db, same), processPaymentEvent(db, same)]);
  expect(twice.map((r) => r.duplicate).sort()).toEqual([false, true]);
  expect((await events()).filter((e) => e.event_id === same.id)).toHaveLength(1);
});

describe('the event shape', () => {
  test.each([
    [{}, ['id', 'type', 'data']],
    [{ id: '', type: 'invoice.paid', data: { object: { amount_paid: 1 } } }, ['id']],
    [{ id: 'evt', type: 'invoice.paid', data: { object: {} } }, ['data.object.amount_paid']],
    [{ id: 'evt', type: 'invoice.paid', data: { object: { amount_paid: -5 } } }, ['data.object.amount_paid']],
    [{ id: 'evt', type: 'invoice.paid', data: { object: { amount_paid: 1.5 } } }, ['data.object.amount_paid']],
    [{ id: 'evt', type: 'invoice.paid', data: 'x' }, ['data']],
  ])('%j is refused at %j', (body, paths) => {
    const result = paymentEventSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect([...new Set(result.error!.issues.map((i) => i.path.join('.')))].sort()).toEqual([...paths].sort());
  });

  test("other fields of the processor's event are kept", () => {
    const event = paymentEventSchema.parse({
      id: 'evt',
      type: 'invoice.paid',
      livemode: false,
      data: { object: { amount_paid: 1, customer: 'cus_1' } },
    });
    expect(event).toMatchObject({ livemode: false, data: { object: { customer: 'cus_1' } } });
  });
});
