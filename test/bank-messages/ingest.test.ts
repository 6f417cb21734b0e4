import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockCardChain } from '../../src/domain/bank-messages/store/evidence.js';
import { processBankMessage } from '../../src/flows/bank-message-in.js';
import { createPaymentRest, createTestDatabase, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit, mellatWithdrawal } from '../support/sms.js';

// DEPOSIT_ROUNDS: rounds of the concurrent-deposit race below (default 10, each 50 posts at once;
// a nightly run sets 100).

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
  const rounds = Number(process.env.DEPOSIT_ROUNDS ?? 10);
  it(`${rounds} rounds of 50 concurrent distinct deposits of one payment's amount: exactly one match and one confirmation each`, async () => {
    const shop = await liveShop();
    for (let round = 0; round < rounds; round++) {
      const p = (await createPaymentRest(app, shop.apiKey, { amount: 400_000 + round * 1000 })).body;
      const at = new Date();
      const results = await Promise.all(
        // Distinct arrivals of one amount (no balance line: the balance chain is the evidence test's subject).
        Array.from({ length: 50 }, (_, i) => send(shop.deviceToken!, mellatDeposit({ account: ACCOUNT, amount: p.amountFinal, at }), new Date(at.getTime() + i).toISOString())),
      );
      // Every post is stored and answered 202, however many arrive at once. The same text for the
      // same card is one deposit (duplicate) once the first is in; one that lost the race to the
      // hold's payment before that is unmatched. Never a second match. One the database was too
      // busy to process before the answer (a loaded machine) is `received`, and its rescue job
      // settles it the same way.
      const unexpected = results.filter((r) => r.status !== 202 || !['matched', 'unmatched', 'duplicate', 'received'].includes(r.body?.status)).map((r) => `${r.status} ${r.text}`);
      expect(unexpected, `round ${round}`).toEqual([]);
      for (const r of results) if (r.body.status === 'received') await processBankMessage(app.deps, r.body.id);
      const matched = await app.deps.prisma.bankMessage.count({ where: { id: { in: results.map((r) => r.body.id) }, status: 'matched' } });
      expect(matched, `round ${round}`).toBe(1);
      const events = await app.deps.prisma.event.count({ where: { paymentId: p.id, type: 'payment.confirmed' } });
      expect(events).toBe(1);
    }
    const ledgerFees = await app.deps.prisma.creditLedgerEntry.count({ where: { kind: 'fee', payment: { projectId: shop.projectId } } });
    expect(ledgerFees).toBe(rounds);
  }, 600_000);
});

describe('a database too busy to process a stored SMS now', () => {
  it('answers 202 received (stored, nothing to send again), and the rescue job processes it later', async () => {
    // Given a database that gives up waiting for a lock after 300 ms, and the card's chain lock
    // held elsewhere (as a burst of deposits on one card holds it, one after the other)
    const databaseUrl = await createTestDatabase();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${new URL(databaseUrl).pathname.slice(1)}" SET lock_timeout = '300ms'`);
    await admin.end();
    const busy = await startTestApp({ databaseUrl });
    try {
      const shop = await makeShop(busy, { sandbox: false, credit: 10_000_000, card: { accountNumber: ACCOUNT } });
      const p = (await createPaymentRest(busy, shop.apiKey, { amount: 350_000 })).body;
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const holder = busy.deps.prisma.$transaction(async (tx) => {
        await lockCardChain(tx, shop.cardId);
        locked();
        await held;
      });
      await lockTaken;

      // When the phone posts a deposit for the payment
      const body = { sender: 'BankMellat', body: mellatDeposit({ account: ACCOUNT, amount: p.amountFinal }), receivedAt: new Date().toISOString() };
      const res = await request(busy.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body });
      release();
      await holder;

      // Then it is stored and answered 202 `received`, not an error the phone would resend on
      expect(res.status, res.text).toBe(202);
      expect(res.body).toEqual({ id: expect.any(String), status: 'received' });
      expect((await busy.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: res.body.id } })).status).toBe('received');
      const rescue = await busy.deps.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'process-bank-message' AND data->>'messageId' = ${res.body.id}`;
      expect(rescue[0]!.n).toBe(1);
      // and what its rescue job runs matches it once the database has time
      expect(await processBankMessage(busy.deps, res.body.id)).toBe('matched');
      expect((await request(busy.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey })).body).toMatchObject({ status: 'confirmed', confirmationSource: 'auto_sms' });
    } finally {
      await busy.stop();
    }
  });
});
