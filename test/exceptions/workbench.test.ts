import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveShopWithHook, MELLAT_SENDER } from '../devices/shop.js';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { subscribeSse } from '../support/sse.js';

// docs/exceptions.md, every deposit and every payment gets a decision: attach, late
// confirmation, candidates, refunds, merchant-credential decisions, through both doors, against a
// real server and database.

let app: TestApp;
let db: pg.Client;

beforeAll(async () => {
  app = await startTestApp();
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await app.stop();
});

type Live = Awaited<ReturnType<typeof liveShopWithHook>>;

const sms = (shop: Live, amount: bigint | number | string, at = new Date()) =>
  request(app.baseUrl, 'POST', '/v1/device/messages', {
    token: shop.deviceToken,
    body: { sender: MELLAT_SENDER, body: mellatDeposit({ account: shop.account, amount, at }), receivedAt: at.toISOString() },
  });

const PAYMENT_FIELDS = `id status confirmationSource bankMessageId amountReceived confirmedLate manualNote refundedAmount reviewRequired reviewReason`;
const ATTACH = `mutation($m: ID!, $p: ID!, $a: Boolean, $n: String) { attachBankMessage(messageId: $m, paymentId: $p, acceptAmount: $a, note: $n) { ${PAYMENT_FIELDS} } }`;
const MESSAGE = `query($first: Int) { bankMessages(first: $first) { edges { node { id status reviewReason paymentId amount candidates { reason payment { id } } } } } }`;

async function credit(merchantKey: string) {
  const v = await gqlOk(app.baseUrl, `{ viewer { merchant { credit { balance reserved available } } } }`, {}, merchantKey);
  return v.viewer.merchant.credit as { balance: string; reserved: string; available: string };
}

async function feeDebits(paymentId: string): Promise<number> {
  const r = await db.query(`SELECT count(*)::int AS n FROM credit_ledger_entries WHERE payment_id = $1 AND kind = 'fee'`, [paymentId]);
  return r.rows[0].n;
}

describe('attach: this deposit is this payment’s money', () => {
  it('a deposit of another amount is a candidate, needs acceptAmount, and then confirms the payment', async () => {
    const shop = await liveShopWithHook(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 300_000 })).body;
    // The payer sent toman: a tenth of the amount.
    const sent = await sms(shop, BigInt(p.amountFinal) / 10n);
    expect(sent.body.status).toBe('unmatched');

    const m = await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { candidateMessages { reason bankMessage { id } } } }`, { id: p.id }, shop.apiKey);
    expect(m.payment.candidateMessages).toEqual([{ reason: 'unit_slip', bankMessage: { id: sent.body.id } }]);
    const list = await gqlOk(app.baseUrl, MESSAGE, { first: 5 }, shop.apiKey);
    const node = list.bankMessages.edges.find((e: any) => e.node.id === sent.body.id).node;
    expect(node.candidates).toEqual([{ reason: 'unit_slip', payment: { id: p.id } }]);

    const refused = await gql(app.baseUrl, ATTACH, { m: sent.body.id, p: p.id }, shop.apiKey);
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'amount_mismatch',
      details: { amount: String(BigInt(p.amountFinal) / 10n), amountFinal: p.amountFinal, amountRequested: '300000' },
    });

    const ok = await gqlOk(app.baseUrl, ATTACH, { m: sent.body.id, p: p.id, a: true, n: 'payer sent toman; rest collected in store' }, shop.apiKey);
    expect(ok.attachBankMessage).toMatchObject({
      status: 'confirmed',
      confirmationSource: 'manual',
      bankMessageId: sent.body.id,
      amountReceived: String(BigInt(p.amountFinal) / 10n),
      confirmedLate: false,
      manualNote: 'payer sent toman; rest collected in store',
      refundedAmount: '0',
    });
    const rest = (await request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey })).body;
    expect(rest).toMatchObject({ status: 'confirmed', bankMessageId: sent.body.id, amountReceived: String(BigInt(p.amountFinal) / 10n), confirmedLate: false });
    expect(await feeDebits(p.id)).toBe(1);

    const after = await gqlOk(app.baseUrl, MESSAGE, { first: 5 }, shop.apiKey);
    expect(after.bankMessages.edges.find((e: any) => e.node.id === sent.body.id).node).toMatchObject({ status: 'matched', paymentId: p.id, reviewReason: null, candidates: [] });
    // One deposit, one payment: attaching it again (or elsewhere) is refused.
    const q = (await createPaymentRest(app, shop.apiKey, { amount: 30_000 })).body;
    const again = await gql(app.baseUrl, ATTACH, { m: sent.body.id, p: q.id, a: true }, shop.apiKey);
    expect(again.errors?.[0]?.extensions.code).toBe('invalid_state');
  });

  it('a canceled payment takes its deposit: confirmed, its released fee charged again', async () => {
    const shop = await liveShopWithHook(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 400_000 })).body;
    const before = await credit(shop.merchantKey);
    expect((await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/cancel`)).status).toBe(200);
    const released = await credit(shop.merchantKey);
    expect(BigInt(released.reserved)).toBeLessThan(BigInt(before.reserved));
    // The payer paid anyway: the deposit holds no live amount (the hold is released with the cancel? it is kept until lateUntil, and a canceled payment is not confirmable automatically).
    const sent = await sms(shop, p.amountFinal);
    expect(sent.body.status).toBe('unmatched');

    const ok = await gqlOk(app.baseUrl, ATTACH, { m: sent.body.id, p: p.id }, shop.merchantKey);
    expect(ok.attachBankMessage).toMatchObject({ status: 'confirmed', confirmationSource: 'manual', amountReceived: p.amountFinal });
    const after = await credit(shop.merchantKey);
    const fee = BigInt(before.balance) - BigInt(after.balance);
    expect(fee).toBeGreaterThan(0n);
    expect(after.reserved).toBe(released.reserved);
    expect(await feeDebits(p.id)).toBe(1);
  });

  it('after the late window: attach and confirm late still settle the payer who really paid', async () => {
    const shop = await liveShopWithHook(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 500_000 })).body;
    const q = (await createPaymentRest(app, shop.apiKey, { amount: 510_000 })).body;
    // Both deadlines and late windows in the past (as if hours had gone by; the expiry sweep did not run yet).
    await db.query(`UPDATE payments SET expires_at = now() - interval '3 hours', late_until = now() - interval '2 hours' WHERE id = ANY($1::uuid[])`, [[p.id, q.id]]);

    const plain = await gql(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "seen in bank") { id } }`, { id: p.id }, shop.apiKey);
    expect(plain.errors?.[0]?.extensions.code).toBe('invalid_state');
    const noNote = await gql(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, late: true) { id } }`, { id: p.id }, shop.apiKey);
    expect(noNote.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'note' }] } });
    const late = await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, late: true, note: "seen in bank statement") { ${PAYMENT_FIELDS} } }`, { id: p.id }, shop.merchantKey);
    expect(late.confirmPaymentManually).toMatchObject({ status: 'confirmed', confirmationSource: 'manual', confirmedLate: true, amountReceived: p.amountFinal, bankMessageId: null, manualNote: 'seen in bank statement' });
    expect(await feeDebits(p.id)).toBe(1);
    const events = await db.query(`SELECT type FROM events WHERE payment_id = $1 ORDER BY seq`, [p.id]);
    expect(events.rows.map((r) => r.type)).toEqual(['payment.expired', 'payment.confirmed']);

    // A late SMS for q matches nothing (its hold ended with its late window); attach settles it.
    const sent = await sms(shop, q.amountFinal);
    expect(sent.body.status).toBe('unmatched');
    const ok = await gqlOk(app.baseUrl, ATTACH, { m: sent.body.id, p: q.id, n: 'SMS came hours late' }, shop.apiKey);
    expect(ok.attachBankMessage).toMatchObject({ status: 'confirmed', confirmedLate: true, bankMessageId: sent.body.id });
  });

  it('refuses what would break a money rule, in the API’s error envelope', async () => {
    const shop = await liveShopWithHook(app);
    const other = await liveShopWithHook(app);
    const sandbox = await makeShop(app, { merchantKey: shop.merchantKey });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 600_000 })).body;
    const s = (await createPaymentRest(app, sandbox.apiKey, { amount: 600_000 })).body;
    const mine = await sms(shop, 700_000);
    const theirs = await sms(other, 600_000);
    // Another merchant's message is not found, exactly like one that does not exist.
    expect((await gql(app.baseUrl, ATTACH, { m: theirs.body.id, p: p.id, a: true }, shop.merchantKey)).errors?.[0]?.extensions.code).toBe('not_found');
    expect((await gql(app.baseUrl, ATTACH, { m: '00000000-0000-4000-8000-000000000000', p: p.id }, shop.apiKey)).errors?.[0]?.extensions.code).toBe('not_found');
    expect((await gql(app.baseUrl, ATTACH, { m: mine.body.id, p: 'nope' }, shop.apiKey)).errors?.[0]?.extensions.code).toBe('not_found');
    // Real money never settles a sandbox payment.
    expect((await gql(app.baseUrl, ATTACH, { m: mine.body.id, p: s.id, a: true }, shop.merchantKey)).errors?.[0]?.extensions.code).toBe('invalid_state');
    // A rejected payment is final.
    await request(app.baseUrl, 'POST', `/v1/payments/${p.id}/reject`, { token: shop.apiKey, body: { reason: 'out of stock' } });
    const rejected = await gql(app.baseUrl, ATTACH, { m: mine.body.id, p: p.id, a: true }, shop.apiKey);
    expect(rejected.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_state', details: { status: 'rejected' } });
    // Nothing half-written: the message is still open.
    const m = await db.query(`SELECT status FROM bank_messages WHERE id = $1`, [mine.body.id]);
    expect(m.rows[0].status).toBe('unmatched');
  });
});

describe('review', () => {
  it('a deposit without its code: needs_review with its machine reason, found by the review filters, confirmed by hand with its deposit', async () => {
    const shop = await liveShopWithHook(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 250_000 })).body;
    const sent = await sms(shop, 250_000);
    expect(sent.body.status).toBe('needs_review');
    const list = await gqlOk(app.baseUrl, MESSAGE, { first: 5 }, shop.apiKey);
    expect(list.bankMessages.edges.find((e: any) => e.node.id === sent.body.id).node).toMatchObject({
      reviewReason: 'amount_without_code',
      candidates: [{ reason: 'base_amount', payment: { id: p.id } }],
    });
    const flagged = await gqlOk(app.baseUrl, `query { payments(reviewRequired: true) { edges { node { id reviewReason } } } }`, {}, shop.apiKey);
    expect(flagged.payments.edges.map((e: any) => e.node)).toEqual([{ id: p.id, reviewReason: 'amount_without_code' }]);
    const events = await db.query(`SELECT type, payload FROM events WHERE payment_id = $1 OR bank_message_id = $2 ORDER BY seq`, [p.id, sent.body.id]);
    expect(events.rows.map((r) => r.type)).toEqual(['payment.review_required', 'bank_message.needs_review']);
    expect(events.rows[1].payload).toMatchObject({ bankMessageId: sent.body.id, reviewReason: 'amount_without_code', candidatePaymentIds: [p.id] });

    const ok = await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "code left out") { ${PAYMENT_FIELDS} } }`, { id: p.id }, shop.apiKey);
    expect(ok.confirmPaymentManually).toMatchObject({ status: 'confirmed', bankMessageId: sent.body.id, amountReceived: '250000', reviewRequired: false, manualNote: 'code left out' });
  });

  it('a decision on a held deposit clears the review flags it set; reject ends a review; dismissPaymentReview clears one by word', async () => {
    const shop = await makeShop(app);
    const sim = (paymentId: string, outcome: string) => request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId, outcome } });
    const FLAG = `query($id: ID!) { payment(id: $id) { status reviewRequired reviewReason } }`;
    const flag = async (id: string) => (await gqlOk(app.baseUrl, FLAG, { id }, shop.apiKey)).payment;

    // One deposit of the amount two payments share without their codes: both flagged, neither chosen.
    const a = (await createPaymentRest(app, shop.apiKey, { amount: 130_000 })).body;
    const b = (await createPaymentRest(app, shop.apiKey, { amount: 130_000 })).body;
    const held = await sim(a.id, 'base_amount');
    expect(held.body.bankMessage.status).toBe('needs_review');
    expect(await flag(b.id)).toMatchObject({ reviewRequired: true, reviewReason: 'ambiguous_deposit' });
    // Confirming A by hand takes the deposit as its evidence; B is no longer waiting on it.
    const ok = await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "A paid") { ${PAYMENT_FIELDS} } }`, { id: a.id }, shop.apiKey);
    expect(ok.confirmPaymentManually).toMatchObject({ status: 'confirmed', bankMessageId: held.body.bankMessage.id, amountReceived: '130000', reviewRequired: false });
    expect(await flag(b.id)).toEqual({ status: 'pending', reviewRequired: false, reviewReason: null });
    const reviewQueue = await gqlOk(app.baseUrl, `query { payments(reviewRequired: true) { totalCount } }`, {}, shop.apiKey);
    expect(reviewQueue.payments.totalCount).toBe(0);

    // Dismissing a forged deposit clears its payment's flag.
    const c = (await createPaymentRest(app, shop.apiKey, { amount: 140_000 })).body;
    const forged = await sim(c.id, 'unknown_sender');
    expect(await flag(c.id)).toMatchObject({ reviewRequired: true, reviewReason: 'unknown_sender' });
    await gqlOk(app.baseUrl, `mutation($id: ID!) { dismissBankMessage(id: $id, note: "not from the bank") { status } }`, { id: forged.body.bankMessage.id }, shop.apiKey);
    expect(await flag(c.id)).toEqual({ status: 'pending', reviewRequired: false, reviewReason: null });

    // A rejection ends the review.
    const d = (await createPaymentRest(app, shop.apiKey, { amount: 150_000 })).body;
    await sim(d.id, 'unknown_sender');
    const rejected = await request(app.baseUrl, 'POST', `/v1/payments/${d.id}/reject`, { token: shop.apiKey, body: { reason: 'fraud attempt' } });
    expect(rejected.body).toMatchObject({ status: 'rejected', reviewRequired: false, reviewReason: null });

    // A payer who reported paying and nothing came: the merchant checked the bank and closes the review.
    const e = (await createPaymentRest(app, shop.apiKey, { amount: 160_000 })).body;
    await request(app.baseUrl, 'POST', `/v1/checkout/${e.token}/report`, { body: { payerCardLast4: '1234' } });
    await db.query(`UPDATE payments SET expires_at = now() - interval '1 second' WHERE id = $1`, [e.id]);
    const { expirePayment } = await import('../../src/domain/payments/expiry.js');
    await expirePayment(app.deps, e.id);
    expect(await flag(e.id)).toEqual({ status: 'expired', reviewRequired: true, reviewReason: 'payer_reported_no_deposit' });
    const DISMISS = `mutation($id: ID!) { dismissPaymentReview(id: $id, note: "nothing in the bank") { status reviewRequired reviewReason } }`;
    expect((await gqlOk(app.baseUrl, DISMISS, { id: e.id }, shop.merchantKey)).dismissPaymentReview).toEqual({ status: 'expired', reviewRequired: false, reviewReason: null });
    expect((await gql(app.baseUrl, DISMISS, { id: e.id }, shop.apiKey)).errors?.[0]?.extensions.code).toBe('invalid_state');
    const audit = await db.query(`SELECT action, note FROM audit_events WHERE subject_id = $1 ORDER BY at`, [e.id]);
    expect(audit.rows).toEqual([{ action: 'payment.review_dismissed', note: 'nothing in the bank' }]);
  });

  it('reported paying, nothing came: the payments(reported) filter', async () => {
    const shop = await makeShop(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 77_000 })).body;
    const q = (await createPaymentRest(app, shop.apiKey, { amount: 78_000 })).body;
    await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/report`, { body: { payerCardLast4: '1234' } });
    const reported = await gqlOk(app.baseUrl, `query { payments(reported: true) { edges { node { id } } } }`, {}, shop.apiKey);
    expect(reported.payments.edges.map((e: any) => e.node.id)).toEqual([p.id]);
    const notReported = await gqlOk(app.baseUrl, `query { payments(reported: false) { edges { node { id } } } }`, {}, shop.apiKey);
    expect(notReported.payments.edges.map((e: any) => e.node.id)).toEqual([q.id]);
  });
});

describe('the merchant credential reads and decides across its projects', () => {
  it('payments, payment and bankMessages cover every project (or one with projectId); another merchant’s are invisible', async () => {
    const a = await makeShop(app);
    const b = await makeShop(app, { merchantKey: a.merchantKey });
    const stranger = await makeShop(app);
    const pa = (await createPaymentRest(app, a.apiKey, { amount: 90_000 })).body;
    const pb = (await createPaymentRest(app, b.apiKey, { amount: 91_000 })).body;
    const ps = (await createPaymentRest(app, stranger.apiKey, { amount: 92_000 })).body;
    const all = await gqlOk(app.baseUrl, `query { payments { totalCount edges { node { id } } } }`, {}, a.merchantKey);
    expect(all.payments.edges.map((e: any) => e.node.id).sort()).toEqual([pa.id, pb.id].sort());
    const one = await gqlOk(app.baseUrl, `query($p: ID) { payments(projectId: $p) { totalCount edges { node { id } } } }`, { p: b.projectId }, a.merchantKey);
    expect(one.payments).toEqual({ totalCount: 1, edges: [{ node: { id: pb.id } }] });
    const foreign = await gqlOk(app.baseUrl, `query($p: ID) { payments(projectId: $p) { totalCount } }`, { p: stranger.projectId }, a.merchantKey);
    expect(foreign.payments.totalCount).toBe(0);
    expect((await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { id } }`, { id: pb.id }, a.merchantKey)).payment).toEqual({ id: pb.id });
    expect((await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { id } }`, { id: ps.id }, a.merchantKey)).payment).toBeNull();
    // A project key still sees only its own project, whatever projectId it names.
    const own = await gqlOk(app.baseUrl, `query($p: ID) { payments(projectId: $p) { totalCount } }`, { p: b.projectId }, a.apiKey);
    expect(own.payments.totalCount).toBe(0);
    // REST stays a project-key door.
    expect((await request(app.baseUrl, 'GET', '/v1/payments', { token: a.merchantKey })).status).toBe(401);

    const rejected = await gqlOk(app.baseUrl, `mutation($id: ID!) { rejectPayment(id: $id, reason: "duplicate order") { status } }`, { id: pb.id }, a.merchantKey);
    expect(rejected.rejectPayment.status).toBe('rejected');
    const refused = await gql(app.baseUrl, `mutation($id: ID!) { rejectPayment(id: $id, reason: "x") { status } }`, { id: ps.id }, a.merchantKey);
    expect(refused.errors?.[0]?.extensions.code).toBe('not_found');
    const audit = await db.query(`SELECT actor_kind, action, subject_id FROM audit_events WHERE subject_id = $1`, [pb.id]);
    expect(audit.rows).toEqual([{ actor_kind: 'merchant_key', action: 'payment.rejected', subject_id: pb.id }]);
  });

  it('webhookDeliveries and paymentEvents cover every project of the merchant, or one', async () => {
    const a = await makeShop(app);
    const b = await makeShop(app, { merchantKey: a.merchantKey });
    for (const s of [a, b]) {
      await gqlOk(app.baseUrl, `mutation($p: ID!) { setWebhookEndpoint(projectId: $p, url: "http://127.0.0.1:9/hook") { secret } }`, { p: s.projectId }, a.merchantKey);
    }
    const all = subscribeSse<{ data?: { paymentEvents: { type: string; paymentId: string } } }>(app.baseUrl, `subscription { paymentEvents { type paymentId } }`, {}, `Bearer ${a.merchantKey}`);
    const onlyB = subscribeSse<{ data?: { paymentEvents: { type: string; paymentId: string } } }>(app.baseUrl, `subscription($p: ID) { paymentEvents(projectId: $p) { type paymentId } }`, { p: b.projectId }, `Bearer ${a.merchantKey}`);
    await new Promise((r) => setTimeout(r, 500));
    const pa = (await createPaymentRest(app, a.apiKey, { amount: 93_000 })).body;
    const pb = (await createPaymentRest(app, b.apiKey, { amount: 94_000 })).body;
    await request(app.baseUrl, 'POST', `/v1/payments/${pa.id}/reject`, { token: a.apiKey, body: { reason: 'x' } });
    await request(app.baseUrl, 'POST', `/v1/payments/${pb.id}/reject`, { token: b.apiKey, body: { reason: 'y' } });
    const events = await all.waitFor(2, 10_000);
    expect(events.map((e) => e.data?.paymentEvents.paymentId).sort()).toEqual([pa.id, pb.id].sort());
    const oneProject = await onlyB.waitFor(1, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(onlyB.values.map((e) => e.data?.paymentEvents.paymentId)).toEqual([pb.id]);
    expect(oneProject[0]?.data?.paymentEvents.type).toBe('payment.rejected');
    all.stop();
    onlyB.stop();

    const DELIVERIES = `query($p: ID) { webhookDeliveries(projectId: $p) { edges { node { paymentId } } } }`;
    const every = await gqlOk(app.baseUrl, DELIVERIES, {}, a.merchantKey);
    expect(every.webhookDeliveries.edges.map((e: any) => e.node.paymentId).sort()).toEqual([pa.id, pb.id].sort());
    const one = await gqlOk(app.baseUrl, DELIVERIES, { p: a.projectId }, a.merchantKey);
    expect(one.webhookDeliveries.edges.map((e: any) => e.node.paymentId)).toEqual([pa.id]);
    const stranger = await makeShop(app);
    const none = await gqlOk(app.baseUrl, DELIVERIES, { p: a.projectId }, stranger.merchantKey);
    expect(none.webhookDeliveries.edges).toEqual([]);
  });
});

describe('sandbox: every exception can be rehearsed', () => {
  it('unit_slip, underpaid, overpaid, duplicate and unknown_sender send what they say, and the engine decides', async () => {
    const shop = await makeShop(app);
    const sim = (paymentId: string, outcome: string) => request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId, outcome } });
    const pay = async (amount: number) => (await createPaymentRest(app, shop.apiKey, { amount })).body;

    const a = await pay(200_000);
    const slip = await sim(a.id, 'unit_slip');
    expect(slip.status).toBe(200);
    expect(slip.body).toMatchObject({ simulatedAmount: String(BigInt(a.amountFinal) / 10n), bankMessage: { status: 'unmatched' }, payment: { status: 'pending' } });
    const cands = await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { candidateMessages { reason bankMessage { id } } } }`, { id: a.id }, shop.apiKey);
    expect(cands.payment.candidateMessages).toEqual([{ reason: 'unit_slip', bankMessage: { id: slip.body.bankMessage.id } }]);

    const b = await pay(250_000); // far from a: its underpaid amount must not be a's exact amount
    const under = await sim(b.id, 'underpaid');
    expect(under.body).toMatchObject({ simulatedAmount: String(BigInt(b.amountFinal) - 10_000n), bankMessage: { status: 'unmatched' } });
    const over = await sim(b.id, 'overpaid');
    expect(over.body).toMatchObject({ simulatedAmount: String(BigInt(b.amountFinal) + 10_000n), bankMessage: { status: 'unmatched' } });
    const reasons = await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { candidateMessages { reason } } }`, { id: b.id }, shop.apiKey);
    expect(reasons.payment.candidateMessages).toEqual([{ reason: 'near_amount' }, { reason: 'near_amount' }]);

    const c = await pay(220_000);
    const dup = await sim(c.id, 'duplicate');
    expect(dup.body).toMatchObject({ simulatedAmount: c.amountFinal, bankMessage: { status: 'duplicate' }, payment: { status: 'confirmed' } });

    const d = await pay(230_000);
    const stranger = await sim(d.id, 'unknown_sender');
    expect(stranger.body).toMatchObject({ simulatedAmount: d.amountFinal, bankMessage: { status: 'needs_review' }, payment: { status: 'pending', reviewRequired: true, reviewReason: 'unknown_sender' } });
    const m = await gqlOk(app.baseUrl, `query { bankMessages(status: needs_review) { edges { node { id sender reviewReason } } } }`, {}, shop.apiKey);
    expect(m.bankMessages.edges[0].node).toEqual({ id: stranger.body.bankMessage.id, sender: '+989121234567', reviewReason: 'unknown_sender' });

    // The merchant settles the slip by attaching it (it is the payment's money), and refunds the extra.
    const attached = await gqlOk(app.baseUrl, ATTACH, { m: over.body.bankMessage.id, p: b.id, a: true, n: 'paid 10,000 too much' }, shop.apiKey);
    expect(attached.attachBankMessage).toMatchObject({ status: 'confirmed', amountReceived: String(BigInt(b.amountFinal) + 10_000n) });
    const back = await request(app.baseUrl, 'POST', `/v1/payments/${b.id}/refunds`, { token: shop.apiKey, body: { amount: 10_000, destinationCard: '6037991234567893' } });
    expect(back.status).toBe(201);
  });
});
