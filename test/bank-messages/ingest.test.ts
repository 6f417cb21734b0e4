import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit, mellatWithdrawal } from '../support/sms.js';

let app: TestApp;
const ACCOUNT = '1234567890';

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

async function liveShop(settings: Record<string, unknown> = {}) {
  return makeShop(app, { sandbox: false, credit: 10_000_000, settings, card: { accountNumber: ACCOUNT } });
}

function send(deviceToken: string, body: string, receivedAt = new Date().toISOString(), sender = 'BankMellat') {
  return request(app.baseUrl, 'POST', '/v1/device/messages', { token: deviceToken, body: { sender, body, receivedAt } });
}

const payment = (shop: { apiKey: string }, id: string) => request(app.baseUrl, 'GET', `/v1/payments/${id}`, { token: shop.apiKey }).then((r) => r.body);

describe('POST /v1/device/messages', () => {
  it('stores the SMS, matches it to the payment holding its amount and confirms it (auto_sms)', async () => {
    const shop = await liveShop();
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 250_000 })).body;
    const res = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: p.amountFinal }));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'matched' });
    expect(await payment(shop, p.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
    const stored = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ bankCode: 'mellat', direction: 'deposit', amount: BigInt(p.amountFinal), accountHint: ACCOUNT, paymentId: p.id });
    const confirmedBy = await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect(confirmedBy.confirmedByMessageId).toBe(res.body.id);
  });

  it('stores a repeat of the same SMS as a duplicate with its own id', async () => {
    const shop = await liveShop();
    const at = new Date().toISOString();
    const body = mellatDeposit({ account: ACCOUNT, amount: 999_999 });
    const first = await send(shop.deviceToken!, body, at);
    const again = await send(shop.deviceToken!, body, at);
    expect(again.body.status).toBe('duplicate');
    expect(again.body.id).not.toBe(first.body.id);
    const dup = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: again.body.id } });
    expect(dup.duplicateOfId).toBe(first.body.id);
  });

  it('ignores withdrawals and one-time passwords, and keeps unknown texts as unparsed, visible to the merchant', async () => {
    const shop = await liveShop();
    expect((await send(shop.deviceToken!, mellatWithdrawal(ACCOUNT, 300_000))).body.status).toBe('ignored');
    expect((await send(shop.deviceToken!, 'بانک ملی ایران\nانتقال به کارت 6037991234567890\nمبلغ:70,000,000 ریال\nرمز:552211', undefined, '+98700717')).body.status).toBe('ignored');
    const unknown = await send(shop.deviceToken!, 'Hello from your mobile operator! 50% off', undefined, 'MCI');
    expect(unknown.status).toBe(202);
    expect(unknown.body.status).toBe('unparsed');
    const list = await gqlOk(app.baseUrl, `{ bankMessages(first: 10, status: unparsed) { edges { node { id body status statusReason } } } }`, {}, shop.merchantKey);
    expect(list.bankMessages.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(unknown.body.id);
  });

  it('validates the message body and needs a device token', async () => {
    const shop = await liveShop();
    const bad = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body: { sender: '', body: '', receivedAt: 'now' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['body', 'receivedAt', 'sender']);
    expect((await request(app.baseUrl, 'POST', '/v1/device/messages', { token: shop.apiKey, body: {} })).status).toBe(401);
  });

  it('sends a deposit of the amount without code to review, and manual confirmation settles it', async () => {
    const shop = await liveShop();
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 260_000 })).body;
    const res = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: 260_000 }));
    expect(res.body.status).toBe('needs_review');
    expect(await payment(shop, p.id)).toMatchObject({ status: 'pending', reviewRequired: true, reviewReason: 'amount_without_code' });
    await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id) { status } }`, { id: p.id }, shop.apiKey);
    const msg = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(msg.status).toBe('matched');
    expect(await payment(shop, p.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'manual', reviewRequired: false });
  });

  it('never guesses between two payments whose amount without code fits', async () => {
    const shop = await liveShop();
    const a = (await createPaymentRest(app, shop.apiKey, { amount: 270_000 })).body;
    const b = (await createPaymentRest(app, shop.apiKey, { amount: 270_000 })).body;
    const res = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: 270_000 }));
    expect(res.body.status).toBe('needs_review');
    for (const p of [a, b]) expect(await payment(shop, p.id)).toMatchObject({ status: 'pending', reviewRequired: true, reviewReason: 'ambiguous_deposit' });
    const dismissed = await gqlOk(app.baseUrl, `mutation($id: ID!) { dismissBankMessage(id: $id, note: "refunded") { status decisionNote } }`, { id: res.body.id }, shop.apiKey);
    expect(dismissed.dismissBankMessage).toEqual({ status: 'dismissed', decisionNote: 'refunded' });
  });

  it('only considers payments created before the deposit (bank time + 2 minutes)', async () => {
    const shop = await liveShop();
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 280_000 })).body;
    const anHourAgo = new Date(Date.now() - 3_600_000);
    const res = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: p.amountFinal, at: anHourAgo }));
    expect(res.body.status).toBe('unmatched');
    expect((await payment(shop, p.id)).status).toBe('pending');
  });

  it('never gives a rejected payment’s held amount to anyone', async () => {
    const shop = await liveShop();
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 290_000 })).body;
    await request(app.baseUrl, 'POST', `/v1/payments/${p.id}/reject`, { token: shop.apiKey, body: { reason: 'x' } });
    const res = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: p.amountFinal }));
    expect(res.body.status).toBe('unmatched');
    expect((await payment(shop, p.id)).status).toBe('rejected');
  });

  it('confirms an expired payment inside its late window, and not outside it', async () => {
    const { expirePayment } = await import('../../src/domain/payments/expiry.js');
    const shop = await liveShop({ lateWindowSeconds: 3600 });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 300_000 })).body;
    await app.deps.prisma.payment.update({ where: { id: p.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expirePayment(app.deps, p.id);
    const late = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: p.amountFinal }));
    expect(late.body.status).toBe('matched');
    expect(await payment(shop, p.id)).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
    const events = await app.deps.prisma.event.findMany({ where: { paymentId: p.id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['payment.expired', 'payment.confirmed']);

    const q = (await createPaymentRest(app, shop.apiKey, { amount: 301_000 })).body;
    await app.deps.prisma.payment.update({ where: { id: q.id }, data: { expiresAt: new Date(Date.now() - 20_000), lateUntil: new Date(Date.now() + 1) } });
    await expirePayment(app.deps, q.id);
    await new Promise((r) => setTimeout(r, 10));
    const tooLate = await send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: q.amountFinal }));
    expect(tooLate.body.status).toBe('unmatched');
    expect((await payment(shop, q.id)).status).toBe('expired');
  });

  it('a deposit naming an account the device does not hold is unmatched', async () => {
    const shop = await liveShop();
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 310_000 })).body;
    const res = await send(shop.deviceToken!, mellatDeposit({ account: '5555555555', amount: p.amountFinal }));
    expect(res.body.status).toBe('unmatched');
  });
});

describe('concurrent deposits', () => {
  const rounds = Number(process.env.DEPOSIT_ROUNDS ?? 100);
  it(`${rounds} rounds of 50 concurrent distinct deposits of one payment's amount: exactly one match and one confirmation each`, async () => {
    const shop = await liveShop();
    for (let round = 0; round < rounds; round++) {
      const p = (await createPaymentRest(app, shop.apiKey, { amount: 400_000 + round * 1000 })).body;
      const at = new Date();
      const results = await Promise.all(
        // Distinct arrivals of one amount (no balance line: the balance chain is the evidence test's subject).
        Array.from({ length: 50 }, (_, i) => send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: p.amountFinal, at }), new Date(at.getTime() + i).toISOString())),
      );
      const statuses = results.map((r) => r.body.status);
      expect(statuses.filter((s) => s === 'matched'), `round ${round}`).toHaveLength(1);
      // The same text for the same card is one deposit (duplicate) once the first is in; one that
      // lost the race to the hold's payment before that is unmatched. Never a second match.
      expect(statuses.filter((s) => s !== 'matched' && s !== 'unmatched' && s !== 'duplicate')).toEqual([]);
      const events = await app.deps.prisma.event.count({ where: { paymentId: p.id, type: 'payment.confirmed' } });
      expect(events).toBe(1);
    }
    const ledgerFees = await app.deps.prisma.creditLedgerEntry.count({ where: { kind: 'fee', payment: { projectId: shop.projectId } } });
    expect(ledgerFees).toBe(rounds);
  }, 600_000);
});
