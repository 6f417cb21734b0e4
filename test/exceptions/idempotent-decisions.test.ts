import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startAppWithClient, type TestApp } from '../support/harness.js';
import { addSignedInUser, CSRF } from '../users/support.js';

// docs/integration.md "Idempotency": every decision is idempotent. Each REST POST that changes
// state takes Idempotency-Key, each GraphQL decision and refund mutation `idempotencyKey`, with the
// rules of payment creation: the same request replays the first answer, another body, route or
// target is 409 idempotency_conflict, errors are not stored. A retried refund is recorded once.

let app: TestApp;
let db: pg.Client;
let stop: () => Promise<void>;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  ({ app, client: db, stop } = await startAppWithClient({ role: 'all' }));
  shop = await makeShop(app);
});
afterAll(() => stop());

const CARD = '6037991234567893'; // Luhn-valid
let amounts = 400_000;

async function pendingPayment(): Promise<{ id: string; token: string; amountFinal: string }> {
  amounts += 10_000;
  const res = await createPaymentRest(app, shop.apiKey, { amount: amounts });
  expect(res.status).toBe(201);
  return res.body;
}

async function confirmedPayment() {
  const p = await pendingPayment();
  const sim = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
  expect(sim.body.payment.status).toBe('confirmed');
  return p;
}

const post = (path: string, body: unknown, key?: string, token = shop.apiKey) =>
  request(app.baseUrl, 'POST', path, { token, body, headers: key === undefined ? {} : { 'Idempotency-Key': key } });

const count = async (sql: string, params: unknown[]) => (await db.query<{ n: number }>(sql, params)).rows[0]!.n;
const refundsOf = (paymentId: string) => count(`SELECT count(*)::int AS n FROM refunds WHERE payment_id = $1`, [paymentId]);

describe('REST: a retried refund is recorded once', () => {
  it('20 concurrent posts with one key record one refund; each answer is that 201 or "still running"; a later retry replays it byte for byte', async () => {
    // Given a confirmed payment
    const p = await confirmedPayment();
    const body = { amount: '25000', destinationCard: CARD, reference: 'R-1' };
    // When a shop server sends the same refund 20 times at once with one key
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(`/v1/payments/${p.id}/refunds`, body, 'refund-once')));
    // Then exactly one refund exists, and every answer is it or 409 idempotency_conflict
    expect(await refundsOf(p.id)).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.text)).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.error.code).toBe('idempotency_conflict');
    }
    // And a retry after they finished (keys in another order) replays the 201 byte for byte
    const retry = await post(`/v1/payments/${p.id}/refunds`, { reference: 'R-1', destinationCard: CARD, amount: '25000' }, 'refund-once');
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(created[0]!.text);
    expect(await refundsOf(p.id)).toBe(1);
    const payment = (await request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey })).body;
    expect(payment.refundedAmount).toBe('25000');
  });

  it('the same key with another body, or the same body on another payment, is 409 idempotency_conflict and records nothing', async () => {
    const a = await confirmedPayment();
    const b = await confirmedPayment();
    const body = { amount: '10000', destinationCard: CARD };
    expect((await post(`/v1/payments/${a.id}/refunds`, body, 'k-target')).status).toBe(201);

    const otherBody = await post(`/v1/payments/${a.id}/refunds`, { ...body, amount: '10001' }, 'k-target');
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.error.code).toBe('idempotency_conflict');

    // The same body on another payment is not the first payment's refund.
    const otherPayment = await post(`/v1/payments/${b.id}/refunds`, body, 'k-target');
    expect(otherPayment.status).toBe(409);
    expect(otherPayment.body.error.code).toBe('idempotency_conflict');
    expect(await refundsOf(a.id)).toBe(1);
    expect(await refundsOf(b.id)).toBe(0);
  });

  it('an error is not stored: a refund refused (409 invalid_state) runs when retried with the same key once it is allowed', async () => {
    const p = await pendingPayment();
    const body = { amount: '10000', destinationCard: CARD };
    const refused = await post(`/v1/payments/${p.id}/refunds`, body, 'after-confirm');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invalid_state');
    await post('/v1/sandbox/deposits', { paymentId: p.id });
    const ok = await post(`/v1/payments/${p.id}/refunds`, body, 'after-confirm');
    expect(ok.status).toBe(201);
    expect(await refundsOf(p.id)).toBe(1);
  });

  it('a key of 256 characters is 400 naming Idempotency-Key', async () => {
    const p = await confirmedPayment();
    const res = await post(`/v1/payments/${p.id}/refunds`, { amount: '10000', destinationCard: CARD }, 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields[0].field).toBe('Idempotency-Key');
    expect(await refundsOf(p.id)).toBe(0);
  });

  it('a second request while the first still holds the key is 409 idempotency_conflict, and runs once the first is done', async () => {
    const p = await confirmedPayment();
    const body = { amount: '10000', destinationCard: CARD };
    // Given another transaction holding the key's lock (a first request still running)
    const holder = new pg.Client({ connectionString: app.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 1))`, [`project:${shop.projectId}:in-flight`]);
      const refused = await post(`/v1/payments/${p.id}/refunds`, body, 'in-flight');
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('idempotency_conflict');
      expect(await refundsOf(p.id)).toBe(0);
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    expect((await post(`/v1/payments/${p.id}/refunds`, body, 'in-flight')).status).toBe(201);
  });

  it('a key is its caller’s: the merchant key’s key space is not the project key’s', async () => {
    const p = await confirmedPayment();
    const body = { amount: '10000', destinationCard: CARD };
    const byProject = await post(`/v1/payments/${p.id}/refunds`, body, 'shared-key');
    const byMerchant = await post(`/v1/payments/${p.id}/refunds`, body, 'shared-key', shop.merchantKey);
    expect([byProject.status, byMerchant.status]).toEqual([201, 201]);
    expect(byMerchant.body.id).not.toBe(byProject.body.id);
    expect((await post(`/v1/payments/${p.id}/refunds`, body, 'shared-key', shop.merchantKey)).text).toBe(byMerchant.text);
    expect(await refundsOf(p.id)).toBe(2);
  });
});

describe('dashboard users: each user’s keys are that user’s', () => {
  it('a staff user’s retry replays; a colleague’s request with the same key is the colleague’s own', async () => {
    const p = await confirmedPayment();
    const merchantId = (await db.query<{ merchant_id: string }>(`SELECT merchant_id FROM projects WHERE id = $1`, [shop.projectId])).rows[0]!.merchant_id;
    const a = await addSignedInUser(app, merchantId, 'staff');
    const b = await addSignedInUser(app, merchantId, 'staff');
    const asUser = (cookie: string) =>
      request(app.baseUrl, 'POST', `/v1/payments/${p.id}/refunds`, { body: { amount: '10000', destinationCard: CARD }, headers: { cookie, ...CSRF, 'Idempotency-Key': 'dash-refund' } });
    const first = await asUser(a.cookie);
    expect(first.status).toBe(201);
    expect((await asUser(a.cookie)).text).toBe(first.text);
    const colleague = await asUser(b.cookie);
    expect(colleague.status).toBe(201);
    expect(colleague.body.id).not.toBe(first.body.id);
    expect(await refundsOf(p.id)).toBe(2);
  });
});

describe('REST: every other decision replays its first answer', () => {
  it('reject: the replay is the first 200, not 409 invalid_state', async () => {
    const p = await pendingPayment();
    const first = await post(`/v1/payments/${p.id}/reject`, { reason: 'out of stock' }, 'reject-1');
    expect(first.status).toBe(200);
    const again = await post(`/v1/payments/${p.id}/reject`, { reason: 'out of stock' }, 'reject-1');
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    // Without the key the decision runs again, and is refused.
    expect((await post(`/v1/payments/${p.id}/reject`, { reason: 'out of stock' })).body.error.code).toBe('invalid_state');
  });

  it('verify: a replay is not counted again', async () => {
    const p = await confirmedPayment();
    const first = await post(`/v1/payments/${p.id}/verify`, undefined, 'verify-1');
    const again = await post(`/v1/payments/${p.id}/verify`, undefined, 'verify-1');
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    const payment = (await request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey })).body;
    expect(payment.verifyCount).toBe(1);
  });

  it('sandbox deposit: a retried simulation feeds one deposit', async () => {
    const p = await pendingPayment();
    const first = await post('/v1/sandbox/deposits', { paymentId: p.id }, 'sim-1');
    const again = await post('/v1/sandbox/deposits', { paymentId: p.id }, 'sim-1');
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(await count(`SELECT count(*)::int AS n FROM bank_messages WHERE payment_id = $1`, [p.id])).toBe(1);
  });

  it('checkout report and cancel (public, in the key space of the token’s payment)', async () => {
    const p = await pendingPayment();
    const report = await post(`/v1/checkout/${p.token}/report`, undefined, 'tap-1', '');
    const reportAgain = await post(`/v1/checkout/${p.token}/report`, undefined, 'tap-1', '');
    expect(report.status).toBe(200);
    expect(reportAgain.text).toBe(report.text);
    // The same key and body on another route is another request: a conflict, not the report's answer.
    expect((await post(`/v1/checkout/${p.token}/cancel`, undefined, 'tap-1', '')).body.error.code).toBe('idempotency_conflict');
    const cancel = await post(`/v1/checkout/${p.token}/cancel`, undefined, 'tap-2', '');
    const cancelAgain = await post(`/v1/checkout/${p.token}/cancel`, undefined, 'tap-2', '');
    expect(cancel.status).toBe(200);
    expect(cancelAgain.text).toBe(cancel.text);
    expect((await post(`/v1/checkout/${p.token}/cancel`, undefined, undefined, '')).body.error.code).toBe('invalid_state');
  });

  it('a payment link’s public create: a retried tap starts one payment', async () => {
    const slug = `idem-link-${Date.now()}`;
    const link = await gqlOk(
      app.baseUrl,
      `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { id } }`,
      { input: { projectId: shop.projectId, slug, title: 'Tip', amount: 60_000 } },
      shop.merchantKey,
    );
    const first = await post(`/v1/links/${slug}/payments`, {}, 'link-tap', '');
    const again = await post(`/v1/links/${slug}/payments`, {}, 'link-tap', '');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(await count(`SELECT count(*)::int AS n FROM payments WHERE link_id = $1`, [link.createPaymentLink.id])).toBe(1);
  });
});

describe('GraphQL: decisions and refunds take idempotencyKey', () => {
  const RECORD = `mutation($id: ID!, $input: RefundInput!, $key: String) { recordRefund(paymentId: $id, input: $input, idempotencyKey: $key) { id amount } }`;

  it('recordRefund twice with one key records one refund and returns it both times', async () => {
    const p = await confirmedPayment();
    const vars = { id: p.id, input: { amount: 15_000, destinationCard: CARD }, key: 'gql-refund' };
    const first = await gqlOk(app.baseUrl, RECORD, vars, shop.apiKey);
    const again = await gqlOk(app.baseUrl, RECORD, vars, shop.apiKey);
    expect(again.recordRefund).toEqual(first.recordRefund);
    expect(await refundsOf(p.id)).toBe(1);
    // Another amount with the key is a conflict; the REST door's key space holds other requests.
    const other = await gql(app.baseUrl, RECORD, { ...vars, input: { amount: 15_001, destinationCard: CARD } }, shop.apiKey);
    expect(other.errors?.[0]?.extensions.code).toBe('idempotency_conflict');
    expect((await post(`/v1/payments/${p.id}/refunds`, { amount: 15_000, destinationCard: CARD }, 'gql-refund')).body.error.code).toBe('idempotency_conflict');
  });

  it('refundBankMessage, verifyPayment and simulateDeposit replayed with their key do their work once', async () => {
    const p = await pendingPayment();
    const SIMULATE = `mutation($input: SimulateDepositInput!, $key: String) { simulateDeposit(input: $input, idempotencyKey: $key) { simulatedAmount bankMessage { id status } payment { id status } } }`;
    const simVars = { input: { paymentId: p.id, outcome: 'unknown_sender' }, key: 'gql-sim' };
    const sim = await gqlOk(app.baseUrl, SIMULATE, simVars, shop.apiKey);
    expect((await gqlOk(app.baseUrl, SIMULATE, simVars, shop.apiKey)).simulateDeposit).toEqual(sim.simulateDeposit);
    expect(await count(`SELECT count(*)::int AS n FROM bank_messages WHERE id = $1 OR payment_id = $2`, [sim.simulateDeposit.bankMessage.id, p.id])).toBe(1);

    const REFUND_MESSAGE = `mutation($id: ID!, $key: String) { refundBankMessage(messageId: $id, input: { destinationCard: "${CARD}" }, idempotencyKey: $key) { id amount } }`;
    const messageId = sim.simulateDeposit.bankMessage.id;
    const back = await gqlOk(app.baseUrl, REFUND_MESSAGE, { id: messageId, key: 'gql-back' }, shop.apiKey);
    expect((await gqlOk(app.baseUrl, REFUND_MESSAGE, { id: messageId, key: 'gql-back' }, shop.apiKey)).refundBankMessage).toEqual(back.refundBankMessage);
    expect(await count(`SELECT count(*)::int AS n FROM refunds WHERE bank_message_id = $1`, [messageId])).toBe(1);

    const c = await confirmedPayment();
    const VERIFY = `mutation($id: ID!, $key: String) { verifyPayment(id: $id, idempotencyKey: $key) { id verified alreadyVerified } }`;
    const verified = await gqlOk(app.baseUrl, VERIFY, { id: c.id, key: 'gql-verify' }, shop.apiKey);
    expect((await gqlOk(app.baseUrl, VERIFY, { id: c.id, key: 'gql-verify' }, shop.apiKey)).verifyPayment).toEqual(verified.verifyPayment);
    expect((await request(app.baseUrl, 'GET', `/v1/payments/${c.id}`, { token: shop.apiKey })).body.verifyCount).toBe(1);
  });

  it('attach, confirm by hand, reject and dismiss replayed with their key return the first result, not invalid_state', async () => {
    // attach: an overpaid deposit confirms nothing by itself; attaching it confirms the payment.
    const a = await pendingPayment();
    const over = await post('/v1/sandbox/deposits', { paymentId: a.id, outcome: 'overpaid' });
    expect(over.body.payment.status).toBe('pending');
    const ATTACH = `mutation($m: ID!, $p: ID!, $key: String) { attachBankMessage(messageId: $m, paymentId: $p, acceptAmount: true, idempotencyKey: $key) { id status amountReceived } }`;
    const attachVars = { m: over.body.bankMessage.id, p: a.id, key: 'attach-1' };
    const attached = await gqlOk(app.baseUrl, ATTACH, attachVars, shop.apiKey);
    expect(attached.attachBankMessage.status).toBe('confirmed');
    expect((await gqlOk(app.baseUrl, ATTACH, attachVars, shop.apiKey)).attachBankMessage).toEqual(attached.attachBankMessage);
    expect((await gql(app.baseUrl, ATTACH, { ...attachVars, key: null }, shop.apiKey)).errors?.[0]?.extensions.code).toBe('invalid_state');

    const CONFIRM = `mutation($id: ID!, $key: String) { confirmPaymentManually(id: $id, note: "seen in the bank", idempotencyKey: $key) { id status confirmationSource } }`;
    const c = await pendingPayment();
    const confirmed = await gqlOk(app.baseUrl, CONFIRM, { id: c.id, key: 'confirm-1' }, shop.merchantKey);
    expect(confirmed.confirmPaymentManually).toMatchObject({ status: 'confirmed', confirmationSource: 'manual' });
    expect((await gqlOk(app.baseUrl, CONFIRM, { id: c.id, key: 'confirm-1' }, shop.merchantKey)).confirmPaymentManually).toEqual(confirmed.confirmPaymentManually);

    const REJECT = `mutation($id: ID!, $key: String) { rejectPayment(id: $id, reason: "no stock", idempotencyKey: $key) { id status } }`;
    const r = await pendingPayment();
    const rejected = await gqlOk(app.baseUrl, REJECT, { id: r.id, key: 'reject-g' }, shop.apiKey);
    expect(rejected.rejectPayment.status).toBe('rejected');
    expect((await gqlOk(app.baseUrl, REJECT, { id: r.id, key: 'reject-g' }, shop.apiKey)).rejectPayment).toEqual(rejected.rejectPayment);

    const DISMISS = `mutation($id: ID!, $key: String) { dismissBankMessage(id: $id, note: "not ours", idempotencyKey: $key) { id status } }`;
    const d = await pendingPayment();
    const stranger = await post('/v1/sandbox/deposits', { paymentId: d.id, outcome: 'unknown_sender' });
    const dismissed = await gqlOk(app.baseUrl, DISMISS, { id: stranger.body.bankMessage.id, key: 'dismiss-1' }, shop.apiKey);
    expect(dismissed.dismissBankMessage.status).toBe('dismissed');
    expect((await gqlOk(app.baseUrl, DISMISS, { id: stranger.body.bankMessage.id, key: 'dismiss-1' }, shop.apiKey)).dismissBankMessage).toEqual(dismissed.dismissBankMessage);
    expect((await gql(app.baseUrl, DISMISS, { id: stranger.body.bankMessage.id, key: null }, shop.apiKey)).errors?.[0]?.extensions.code).toBe('invalid_state');
  });
});
