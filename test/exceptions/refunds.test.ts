import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveShopWithHook, MELLAT_SENDER } from '../devices/shop.js';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';

// Refunds are records (docs/exceptions.md "12. Refunding a confirmed payment"): confirmed payments
// only, never above what was received (also under concurrent requests), card numbers checked and
// masked, sheba checked, payment.refunded sent; a deposit that belongs to no payment is refunded
// once.

let app: TestApp;
let db: pg.Client;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp();
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  shop = await makeShop(app);
});
afterAll(async () => {
  await db.end();
  await app.stop();
});

const CARD = '6037991234567893'; // Luhn-valid
const SHEBA = 'IR820540102680020817909002'; // valid ISO 13616 check digits

async function confirmedPayment(amount = 200_000) {
  const p = (await createPaymentRest(app, shop.apiKey, { amount })).body;
  const sim = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
  expect(sim.body.payment.status).toBe('confirmed');
  return p as { id: string; amountFinal: string; token: string };
}

const refund = (paymentId: string, body: unknown, token = shop.apiKey) => request(app.baseUrl, 'POST', `/v1/payments/${paymentId}/refunds`, { token, body });

describe('refunds of a payment', () => {
  it('records a refund (201), masks the card, keeps the sum on the payment and sends payment.refunded', async () => {
    const p = await confirmedPayment();
    const res = await refund(p.id, { amount: '50000', destinationCard: '۶۰۳۷-۹۹۱۲-۳۴۵۶-۷۸۹۳', reference: 'TRX-1', note: 'one item returned' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      paymentId: p.id,
      bankMessageId: expect.any(String),
      amount: '50000',
      destinationCard: '************7893',
      destinationSheba: null,
      reference: 'TRX-1',
      note: 'one item returned',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const stored = await db.query(`SELECT destination_card FROM refunds WHERE id = $1`, [res.body.id]);
    expect(stored.rows[0].destination_card).toBe('************7893');
    const list = await request(app.baseUrl, 'GET', `/v1/payments/${p.id}/refunds`, { token: shop.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([res.body]);
    const record = (await request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey })).body;
    expect(record).toMatchObject({ status: 'confirmed', refundedAmount: '50000', amountReceived: p.amountFinal });
    const events = await db.query(`SELECT payload FROM events WHERE payment_id = $1 AND type = 'payment.refunded'`, [p.id]);
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0].payload).toMatchObject({ event: 'payment.refunded', paymentId: p.id, status: 'confirmed', refund: { id: res.body.id, amount: '50000' }, refundedAmount: '50000' });

    // GraphQL: the same records on the payment, and one by sheba.
    const g = await gqlOk(app.baseUrl, `mutation($id: ID!, $input: RefundInput!) { recordRefund(paymentId: $id, input: $input) { amount destinationSheba destinationCard } }`, { id: p.id, input: { amount: 10_000, destinationSheba: SHEBA } }, shop.merchantKey);
    expect(g.recordRefund).toEqual({ amount: '10000', destinationSheba: SHEBA, destinationCard: null });
    const q = await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { refundedAmount refunds { amount } } }`, { id: p.id }, shop.apiKey);
    expect(q.payment).toEqual({ refundedAmount: '60000', refunds: [{ amount: '50000' }, { amount: '10000' }] });
  });

  it('refuses more than what is left (refund_exceeds_payment with details.refundable), bad destinations and unconfirmed payments', async () => {
    const p = await confirmedPayment(100_000);
    const received = BigInt(p.amountFinal);
    expect((await refund(p.id, { amount: String(received - 1000n), destinationCard: CARD })).status).toBe(201);
    const over = await refund(p.id, { amount: '1001', destinationCard: CARD });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: 'refund_exceeds_payment', details: { refundable: '1000' } });
    expect((await refund(p.id, { amount: '1000', destinationCard: CARD })).status).toBe(201);

    const bad = await refund(p.id, { amount: '1', destinationCard: '6037991234567890', destinationSheba: 'IR000540102680020817909002', extra: 1 });
    expect(bad.status).toBe(400);
    const fields = bad.body.error.details.fields.map((f: { field: string }) => f.field).sort();
    expect(fields).toEqual(['destinationCard', 'destinationSheba', 'extra']);
    expect((await refund(p.id, { amount: '1' })).body.error.details.fields).toEqual([{ field: 'destinationCard', message: expect.stringContaining('destination') }]);
    expect((await refund(p.id, { amount: '0', destinationCard: CARD })).status).toBe(400);

    const pending = (await createPaymentRest(app, shop.apiKey, { amount: 100_000 })).body;
    const notYet = await refund(pending.id, { amount: '1000', destinationCard: CARD });
    expect(notYet.status).toBe(409);
    expect(notYet.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'pending' } });
    // Another merchant's payment is not found; the merchant key of the owner may record.
    const stranger = await makeShop(app);
    expect((await refund(p.id, { amount: '1', destinationCard: CARD }, stranger.apiKey)).status).toBe(404);
    expect((await refund(p.id, { amount: '1', destinationCard: CARD }, stranger.merchantKey)).status).toBe(404);
    expect((await request(app.baseUrl, 'GET', `/v1/payments/${p.id}/refunds`, { token: stranger.apiKey })).status).toBe(404);
    expect((await request(app.baseUrl, 'GET', `/v1/payments/not-a-uuid/refunds`, { token: shop.apiKey })).status).toBe(404);
  });

  it('concurrent refunds never sum above what was received', async () => {
    const p = await confirmedPayment(300_000);
    const received = BigInt(p.amountFinal);
    const part = received / 4n + 1n; // four of them would be one rial too many
    const results = await Promise.all(Array.from({ length: 12 }, () => refund(p.id, { amount: String(part), destinationCard: CARD })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('refund_exceeds_payment');
    const sum = await db.query(`SELECT coalesce(sum(amount), 0)::text AS s FROM refunds WHERE payment_id = $1`, [p.id]);
    const row = await db.query(`SELECT refunded_amount::text AS r FROM payments WHERE id = $1`, [p.id]);
    expect(sum.rows[0].s).toBe(String(part * 3n));
    expect(row.rows[0].r).toBe(String(part * 3n));
  });

  it('the database holds the rules by itself: the sum bounded, the records append-only', async () => {
    const p = await confirmedPayment(120_000);
    const insert = (amount: bigint) =>
      db.query(`INSERT INTO refunds (merchant_id, project_id, payment_id, amount, destination_card) SELECT merchant_id, project_id, id, $2, '************7893' FROM payments WHERE id = $1 RETURNING id`, [p.id, amount]);
    await expect(insert(BigInt(p.amountFinal) + 1n)).rejects.toThrow(/payments_refunds_within_received/);
    const { rows } = await insert(1000n);
    await expect(db.query(`UPDATE refunds SET amount = 1 WHERE id = $1`, [rows[0].id])).rejects.toThrow(/refunds are records/);
    await expect(db.query(`DELETE FROM refunds WHERE id = $1`, [rows[0].id])).rejects.toThrow(/refunds are records/);
    const pending = (await createPaymentRest(app, shop.apiKey, { amount: 120_000 })).body;
    await expect(
      db.query(`INSERT INTO refunds (merchant_id, payment_id, amount, destination_card) SELECT merchant_id, id, 1, '************7893' FROM payments WHERE id = $1`, [pending.id]),
    ).rejects.toThrow(/the payment is pending/);
  });
});

describe('refunds of a deposit that belongs to no payment', () => {
  it('refunds it once, whole by default; the message becomes refunded', async () => {
    const live = await liveShopWithHook(app);
    const at = new Date();
    const sent = await request(app.baseUrl, 'POST', '/v1/device/messages', {
      token: live.deviceToken,
      body: { sender: MELLAT_SENDER, body: mellatDeposit({ account: live.account, amount: 123_450, at }), receivedAt: at.toISOString() },
    });
    expect(sent.body.status).toBe('unmatched');
    const REFUND = `mutation($id: ID!, $input: MessageRefundInput!) { refundBankMessage(messageId: $id, input: $input) { amount destinationCard paymentId bankMessageId } }`;
    const ok = await gqlOk(app.baseUrl, REFUND, { id: sent.body.id, input: { destinationCard: CARD, note: 'unknown payer' } }, live.merchantKey);
    expect(ok.refundBankMessage).toEqual({ amount: '123450', destinationCard: '************7893', paymentId: null, bankMessageId: sent.body.id });
    const m = await gqlOk(app.baseUrl, `{ bankMessages(status: refunded) { edges { node { id status decisionNote refunds { amount } } } } }`, {}, live.merchantKey);
    expect(m.bankMessages.edges).toEqual([{ node: { id: sent.body.id, status: 'refunded', decisionNote: 'unknown payer', refunds: [{ amount: '123450' }] } }]);
    const twice = await gql(app.baseUrl, REFUND, { id: sent.body.id, input: { destinationCard: CARD } }, live.merchantKey);
    expect(twice.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_state', details: { status: 'refunded' } });

    // A deposit that confirmed a payment is refunded through its payment.
    const p = (await createPaymentRest(app, live.apiKey, { amount: 210_000 })).body;
    const matched = await request(app.baseUrl, 'POST', '/v1/device/messages', {
      token: live.deviceToken,
      body: { sender: MELLAT_SENDER, body: mellatDeposit({ account: live.account, amount: p.amountFinal }), receivedAt: new Date().toISOString() },
    });
    expect(matched.body.status).toBe('matched');
    const refused = await gql(app.baseUrl, REFUND, { id: matched.body.id, input: { destinationCard: CARD } }, live.apiKey);
    expect(refused.errors?.[0]?.extensions.code).toBe('invalid_state');
    const tooMuch = await gql(app.baseUrl, REFUND, { id: '00000000-0000-4000-8000-000000000000', input: { destinationCard: CARD } }, live.apiKey);
    expect(tooMuch.errors?.[0]?.extensions.code).toBe('not_found');
  });
});
