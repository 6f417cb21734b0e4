import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachDeposit } from '../../src/operations/attach-deposit.js';
import { cancelCheckout } from '../../src/operations/cancel-checkout.js';
import { confirmPaymentByHand } from '../../src/operations/confirm-by-hand.js';
import type { Operation } from '../../src/operations/operation.js';
import { refundPayment } from '../../src/operations/refund-payment.js';
import { rejectPayment } from '../../src/operations/reject-payment.js';
import { createPaymentRest, gql, gqlOk, makeShop, request, startAppWithClient, testEnv, type TestApp } from '../support/harness.js';
import { runTs } from '../support/process.js';
import { addSignedInUser, gqlAs } from '../users/support.js';

// docs/architecture.md "Operations": one runner (src/operations/run.ts) runs every decision. These
// tests hold what it owns over real HTTP and a real database: the door each audit event names
// (`via`), a decision retried after a serialization failure or a deadlock taking effect once, and
// the events each operation declares it may record.

let app: TestApp;
let db: pg.Client;
let stop: () => Promise<void>;
let shop: Awaited<ReturnType<typeof makeShop>>;
let merchantId: string;

beforeAll(async () => {
  ({ app, client: db, stop } = await startAppWithClient({ role: 'all' }));
  shop = await makeShop(app);
  merchantId = (await gqlOk(app.baseUrl, `{ viewer { merchant { id } } }`, {}, shop.merchantKey)).viewer.merchant.id;
});
afterAll(() => stop());

const CARD = '6037991234567893'; // Luhn-valid
let amounts = 300_000;

async function pendingPayment(): Promise<{ id: string; token: string; amountFinal: string }> {
  amounts += 10_000;
  const res = await createPaymentRest(app, shop.apiKey, { amount: amounts });
  expect(res.status).toBe(201);
  return res.body;
}

const simulate = (paymentId: string, outcome = 'match') => request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId, outcome } });

async function confirmedPayment() {
  const p = await pendingPayment();
  expect((await simulate(p.id)).body.payment.status).toBe('confirmed');
  return p;
}

const AUDIT = `query($id: ID!) { auditEvents(subjectId: $id) { edges { node { action via actor { kind } } } } }`;
const auditOf = async (subjectId: string) => (await gqlOk(app.baseUrl, AUDIT, { id: subjectId }, shop.merchantKey)).auditEvents.edges.map((e: any) => e.node);

const eventTypes = async (paymentId: string) => (await db.query<{ type: string }>(`SELECT type FROM events WHERE payment_id = $1 ORDER BY seq`, [paymentId])).rows.map((r) => r.type);

describe('every audit event names the door it came through (via)', () => {
  it('a project key over REST is api', async () => {
    // Given a pending payment, when the shop server rejects it over REST
    const p = await pendingPayment();
    const res = await request(app.baseUrl, 'POST', `/v1/payments/${p.id}/reject`, { token: shop.apiKey, body: { reason: 'out of stock' } });
    expect(res.status).toBe(200);
    // Then the decision's event says api, by the project key
    expect(await auditOf(p.id)).toEqual([{ action: 'payment.rejected', via: 'api', actor: { kind: 'project_key' } }]);
  });

  it('a dashboard user’s session over GraphQL is dashboard; a key over GraphQL is api', async () => {
    const staff = await addSignedInUser(app, merchantId, 'staff');
    const bySession = await pendingPayment();
    const byKey = await pendingPayment();
    const REJECT = `mutation($id: ID!) { rejectPayment(id: $id, reason: "duplicate order") { status } }`;
    // When a staff member rejects one from the dashboard, and the merchant key the other
    expect((await gqlAs(app, staff.cookie, REJECT, { id: bySession.id })).data.rejectPayment.status).toBe('rejected');
    expect((await gqlOk(app.baseUrl, REJECT, { id: byKey.id }, shop.merchantKey)).rejectPayment.status).toBe('rejected');
    // Then each event names its door
    expect(await auditOf(bySession.id)).toEqual([{ action: 'payment.rejected', via: 'dashboard', actor: { kind: 'user' } }]);
    expect(await auditOf(byKey.id)).toEqual([{ action: 'payment.rejected', via: 'api', actor: { kind: 'merchant_key' } }]);
  });

  it('the operator CLI is cli', async () => {
    // When the operator adds credit from the CLI
    const res = await runTs('src/cli/index.ts', ['merchant', 'credit', '--id', merchantId, '--add', '1000', '--json'], testEnv(app.databaseUrl));
    expect(res.code).toBe(0);
    // Then the event says cli, by the operator
    expect(await auditOf(merchantId)).toContainEqual({ action: 'merchant.credit_added', via: 'cli', actor: { kind: 'operator' } });
  });
});

describe('a decision takes effect once', () => {
  it('a serialization failure inside a keyed refund runs the whole decision again: one refund, one event, one set of audit events, one stored answer', async () => {
    // Given a confirmed payment, and a database that fails the first insert of a refund noted
    // "fail once" as a serialization failure would (a sequence counts attempts: it is not rolled back)
    const p = await confirmedPayment();
    await db.query(`CREATE SEQUENCE IF NOT EXISTS test_refund_attempts`);
    await db.query(`CREATE OR REPLACE FUNCTION test_fail_first_refund() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.note = 'fail once' THEN
          IF nextval('test_refund_attempts') = 1 THEN
            RAISE EXCEPTION 'could not serialize access (test)' USING ERRCODE = 'serialization_failure';
          END IF;
        END IF;
        RETURN NEW;
      END $$`);
    await db.query(`CREATE OR REPLACE TRIGGER test_fail_first_refund BEFORE INSERT ON refunds FOR EACH ROW EXECUTE FUNCTION test_fail_first_refund()`);
    const before = await eventTypes(p.id);

    // When the shop records a refund with a key
    const body = { amount: '20000', destinationCard: CARD, note: 'fail once' };
    const post = () => request(app.baseUrl, 'POST', `/v1/payments/${p.id}/refunds`, { token: shop.apiKey, body, headers: { 'Idempotency-Key': 'retried-inside' } });
    const first = await post();

    // Then it succeeded on the second attempt, not as 409 conflict
    expect(first.status).toBe(201);
    expect((await db.query(`SELECT last_value::int AS n FROM test_refund_attempts`)).rows[0].n).toBe(2);
    // And everything happened once
    expect((await db.query(`SELECT count(*)::int AS n FROM refunds WHERE payment_id = $1`, [p.id])).rows[0].n).toBe(1);
    expect((await eventTypes(p.id)).slice(before.length)).toEqual(['payment.refunded']);
    expect(await auditOf(p.id)).toEqual([{ action: 'payment.refunded', via: 'api', actor: { kind: 'project_key' } }]);
    expect(await auditOf(first.body.id)).toEqual([{ action: 'refund.recorded', via: 'api', actor: { kind: 'project_key' } }]);
    expect((await db.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'retried-inside'`)).rows[0].n).toBe(1);
    // And a retry replays the stored answer byte for byte
    const again = await post();
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect((await db.query(`SELECT last_value::int AS n FROM test_refund_attempts`)).rows[0].n).toBe(2);
  });

  it('an attach and a confirmation by hand of one held deposit, sent at once over HTTP: one confirms, the other is refused as the state now is, never as a deadlock', async () => {
    // The two lock in opposite orders (attach: the message, then the payment; the confirmation: the
    // payment, then its waiting deposit), so Postgres may end one as a deadlock: the runner runs it
    // again, and it then sees the decision the other made.
    const ATTACH = `mutation($m: ID!, $p: ID!) { attachBankMessage(messageId: $m, paymentId: $p) { status } }`;
    const CONFIRM = `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "seen in the bank") { status } }`;
    for (let round = 0; round < 6; round++) {
      // Given a deposit of the amount without its code, held for review on the payment
      const p = await pendingPayment();
      const held = await simulate(p.id, 'base_amount');
      expect(held.body.bankMessage.status).toBe('needs_review');
      const messageId = held.body.bankMessage.id;
      // When the merchant attaches it while the shop confirms the payment by hand
      const [attach, confirm] = await Promise.all([
        gql(app.baseUrl, ATTACH, { m: messageId, p: p.id }, shop.merchantKey),
        gql(app.baseUrl, CONFIRM, { id: p.id }, shop.apiKey),
      ]);
      // Then exactly one of them confirmed it, and the other was refused by the state it found
      const outcomes = [attach.errors?.[0]?.extensions.code ?? attach.data.attachBankMessage.status, confirm.errors?.[0]?.extensions.code ?? confirm.data.confirmPaymentManually.status];
      expect(outcomes.sort()).toEqual(['confirmed', 'invalid_state']);
      expect(await eventTypes(p.id)).toEqual(['payment.review_required', 'payment.confirmed']);
      const decided = (await auditOf(p.id)).map((e: { action: string }) => e.action);
      expect(decided).toHaveLength(1);
      expect(['payment.deposit_attached', 'payment.confirmed_manually']).toContain(decided[0]);
      const message = (await db.query(`SELECT status, payment_id FROM bank_messages WHERE id = $1`, [messageId])).rows[0];
      expect(message).toEqual({ status: 'matched', payment_id: p.id });
    }
  });
});

describe('each operation records only the payment events it declares (emits)', () => {
  /** The events a call adds to the payment, each among the operation's declared ones. */
  async function expectDeclared(op: Operation<any, any, any>, paymentId: string, call: () => Promise<unknown>, expected: string[]) {
    const before = (await eventTypes(paymentId)).length;
    await call();
    const added = (await eventTypes(paymentId)).slice(before);
    expect(added).toEqual(expected);
    for (const type of added) expect(op.emits, `${op.name} records ${type}`).toContain(type);
  }

  it('reject, cancel, refund, attach, and a confirmation by hand that expires and flags the payment first', async () => {
    const rejected = await pendingPayment();
    await expectDeclared(rejectPayment, rejected.id, () => request(app.baseUrl, 'POST', `/v1/payments/${rejected.id}/reject`, { token: shop.apiKey, body: { reason: 'x' } }), ['payment.rejected']);

    const canceled = await pendingPayment();
    await expectDeclared(cancelCheckout, canceled.id, () => request(app.baseUrl, 'POST', `/v1/checkout/${canceled.token}/cancel`, {}), ['payment.canceled']);

    const refunded = await confirmedPayment();
    await expectDeclared(refundPayment, refunded.id, () => request(app.baseUrl, 'POST', `/v1/payments/${refunded.id}/refunds`, { token: shop.apiKey, body: { amount: '1000', destinationCard: CARD } }), ['payment.refunded']);

    const attached = await pendingPayment();
    const loose = await simulate(attached.id, 'wrong_amount');
    expect(loose.body.bankMessage.status).toBe('unmatched');
    await expectDeclared(
      attachDeposit,
      attached.id,
      () => gqlOk(app.baseUrl, `mutation($m: ID!, $p: ID!) { attachBankMessage(messageId: $m, paymentId: $p, acceptAmount: true) { status } }`, { m: loose.body.bankMessage.id, p: attached.id }, shop.merchantKey),
      ['payment.confirmed'],
    );

    // A payer who reported paying, past the deadline the sweep has not reached yet: confirming by
    // hand expires it first (and flags it for review), then confirms it.
    const late = await pendingPayment();
    expect((await request(app.baseUrl, 'POST', `/v1/checkout/${late.token}/report`, { body: { payerCardLast4: '1234' } })).status).toBe(200);
    await db.query(`UPDATE payments SET expires_at = now() - interval '1 minute' WHERE id = $1`, [late.id]);
    await expectDeclared(
      confirmPaymentByHand,
      late.id,
      () => gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "paid") { status } }`, { id: late.id }, shop.apiKey),
      ['payment.expired', 'payment.review_required', 'payment.confirmed'],
    );
  });
});
