import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPaymentRest, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { subscribeSse } from '../support/sse.js';

// paymentUpdated sends the row its stream read after a change. Each value must answer every field
// from that one read: read again per field (as Pothos does for a plain field whose type's fields name
// a selection), a value could mix two versions of the payment, and each subscriber costs a second
// read per change.

let subscriber: TestApp;
let changer: TestApp;

beforeAll(async () => {
  subscriber = await startTestApp({ role: 'api' });
  changer = await startTestApp({ role: 'api', databaseUrl: subscriber.databaseUrl });
});
afterAll(async () => {
  await changer.stop();
  await subscriber.stop();
});

/** Counts the statements the subscriber's process sends that read the payments table. */
function countPaymentReads(app: TestApp): { count: () => number; stop: () => void } {
  const pool = app.deps.pool as unknown as { query: (...args: unknown[]) => unknown };
  const original = pool.query;
  let reads = 0;
  pool.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (/^\s*SELECT\b/i.test(text) && /\bFROM\s+"?(public"?\."?)?payments"?/i.test(text)) reads++;
    return original.apply(this, args);
  };
  return { count: () => reads, stop: () => void (pool.query = original) };
}

it('paymentUpdated answers every field of a value from the one row its stream read', async () => {
  const shop = await makeShop(subscriber);
  const payment = (await createPaymentRest(subscriber, shop.apiKey, { amount: 93_000, metadata: { order: 'A-1' } })).body;
  const stream = subscribeSse<{ data: { paymentUpdated: Record<string, unknown> } }>(
    subscriber.baseUrl,
    'subscription($id: ID!) { paymentUpdated(id: $id) { id status currency checkoutUrl metadata amountFinal updatedAt } }',
    { id: payment.id },
    `Bearer ${shop.apiKey}`,
  );
  try {
    const [first] = await stream.waitFor(1);
    expect(first!.data.paymentUpdated).toMatchObject({ id: payment.id, status: 'pending', currency: 'IRR', metadata: { order: 'A-1' } });
    expect(first!.data.paymentUpdated.checkoutUrl).toMatch(new RegExp(`/pay/${payment.token}$`));

    const reads = countPaymentReads(subscriber);
    try {
      const rejected = await request(changer.baseUrl, 'POST', `/v1/payments/${payment.id}/reject`, { token: shop.apiKey, body: { reason: 'out of stock' } });
      expect(rejected.status).toBe(200);
      const [, second] = await stream.waitFor(2);
      expect(second!.data.paymentUpdated).toMatchObject({ id: payment.id, status: 'rejected', currency: 'IRR', metadata: { order: 'A-1' }, amountFinal: first!.data.paymentUpdated.amountFinal });
      // The stream's own read, and nothing per field.
      expect(reads.count()).toBe(1);
    } finally {
      reads.stop();
    }
  } finally {
    stream.stop();
  }
});
