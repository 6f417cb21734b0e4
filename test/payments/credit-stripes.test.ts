import { randomInt } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { addMerchantCredit } from '../../src/domain/merchants/merchants.js';
import { liveShopWithHook, MELLAT_SENDER } from '../devices/shop.js';
import { createPaymentRest, gql, gqlOk, makeShop, request, startAppWithClient, type TestApp } from '../support/harness.js';
import { findViolations } from '../support/sim/invariants.js';
import { mellatDeposit } from '../support/sms.js';

// A live merchant's credit on its stripes (src/domain/credit/sql/credit_stripes.sql): creates
// reserve side by side on one stripe each, and the merchant's available credit stays exact.

let app: TestApp;
let db: pg.Client;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ app, client: db, stop } = await startAppWithClient({ role: 'all' }));
});
afterAll(() => stop());

const credit = async (merchantKey: string) =>
  (await gqlOk(app.baseUrl, `{ viewer { merchant { credit { balance reserved available } } } }`, {}, merchantKey)).viewer.merchant.credit;

async function stripes(merchantId: string) {
  const { rows } = await db.query<{ stripe: number; lease: string; reserved: string; fees: string }>(
    `SELECT s.stripe, s.lease::text, s.reserved::text,
            (SELECT coalesce(sum(p.fee_amount), 0)::text FROM payments p WHERE p.merchant_id = s.merchant_id AND p.fee_stripe = s.stripe AND p.fee_state = 'reserved') AS fees
       FROM credit_stripes s WHERE s.merchant_id = $1 ORDER BY s.stripe`,
    [merchantId],
  );
  return rows;
}

/** Deadlocks PostgreSQL broke in this database (its statistics are flushed about once a second). */
async function deadlocks(): Promise<number> {
  await new Promise((r) => setTimeout(r, 1_500));
  const { rows } = await db.query<{ n: string }>('SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()');
  return Number(rows[0]!.n);
}

async function merchantOf(projectId: string): Promise<string> {
  return (await db.query(`SELECT merchant_id FROM projects WHERE id = $1`, [projectId])).rows[0].merchant_id;
}

describe('credit stripes', () => {
  it('spreads one merchant’s concurrent creates over its stripes, each holding exactly the fees reserved on it', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 100_000_000 });
    const merchantId = await merchantOf(shop.projectId);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => createPaymentRest(app, shop.apiKey, { amount: 20_000 + i * 1_000 })));
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(201));
    const rows = await stripes(merchantId);
    for (const s of rows) expect(s.reserved).toBe(s.fees);
    // 40 creates on 8 stripes picked at random: all on one stripe has a chance of 8^-39.
    expect(rows.filter((s) => s.reserved !== '0').length).toBeGreaterThan(1);
    const fees = rows.reduce((sum, s) => sum + BigInt(s.fees), 0n);
    expect(await credit(shop.merchantKey)).toEqual({ balance: '100000000', reserved: String(fees), available: String(100_000_000n - fees) });
    // The leases lend out the balance and no more.
    expect(rows.reduce((sum, s) => sum + BigInt(s.lease), 0n)).toBeLessThanOrEqual(100_000_000n);
  });

  it('a top-up after the stripes ran dry is reserved by the next creates, and not beyond', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000 });
    const merchantId = await merchantOf(shop.projectId);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).status).toBe(201);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).status).toBe(402);
    await addMerchantCredit(app.deps, operatorActor, { merchantId, amount: 2_000 });
    const more = await Promise.all(Array.from({ length: 6 }, () => createPaymentRest(app, shop.apiKey, { amount: 20_000 })));
    expect(more.map((r) => r.status).sort()).toEqual([201, 201, 402, 402, 402, 402]);
    expect(await credit(shop.merchantKey)).toEqual({ balance: '3000', reserved: '3000', available: '0' });
  });

  it('creates, rejections and confirmations of one merchant at once: no error, and credit exact after', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 20_000 });
    const first = await Promise.all(Array.from({ length: 40 }, () => createPaymentRest(app, shop.apiKey, { amount: 20_000 })));
    const created = first.filter((r) => r.status === 201).map((r) => r.body.id as string);
    expect(created).toHaveLength(20);
    expect(first.filter((r) => r.status === 402)).toHaveLength(20);

    const before = await deadlocks();
    const rejects = created.slice(0, 10).map((id) => request(app.baseUrl, 'POST', `/v1/payments/${id}/reject`, { token: shop.apiKey, body: { reason: 'test' } }));
    const confirms = created.slice(10, 15).map((id) =>
      gql(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id) { status } }`, { id }, shop.apiKey),
    );
    const creates = Array.from({ length: 30 }, () => createPaymentRest(app, shop.apiKey, { amount: 20_000 }));
    const [rejected, confirmed, second] = await Promise.all([Promise.all(rejects), Promise.all(confirms), Promise.all(creates)]);
    expect(rejected.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(confirmed.map((r) => r.errors ?? r.data.confirmPaymentManually.status)).toEqual(Array(5).fill('confirmed'));
    // One lock order (merchant row, then stripes by number): nothing waited on anything in a cycle.
    expect(await deadlocks()).toBe(before);
    // Ten fees came back; a create that ran before its rejection committed was refused.
    const secondCreated = second.filter((r) => r.status === 201).length;
    expect(second.every((r) => r.status === 201 || r.status === 402)).toBe(true);
    expect(secondCreated).toBeLessThanOrEqual(10);

    const pending = 20 - 10 - 5 + secondCreated;
    expect(await credit(shop.merchantKey)).toEqual({ balance: '15000', reserved: String(pending * 1_000), available: String(15_000 - pending * 1_000) });
    // Whatever the refusals, the rest can still be reserved once the races are over.
    const rest = await Promise.all(Array.from({ length: 12 }, () => createPaymentRest(app, shop.apiKey, { amount: 20_000 })));
    expect(rest.filter((r) => r.status === 201)).toHaveLength(15 - pending);
    expect(await credit(shop.merchantKey)).toMatchObject({ balance: '15000', reserved: '15000', available: '0' });
    expect(await findViolations(app.databaseUrl)).toEqual([]);
  });

  it('a released fee charged again takes back every free lease: no stripe reserves credit that is gone', async () => {
    const shop = await liveShopWithHook(app);
    const merchantId = await merchantOf(shop.projectId);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 400_000 })).body;
    expect((await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/cancel`)).status).toBe(200);
    const at = new Date();
    const sent = await request(app.baseUrl, 'POST', '/v1/device/messages', {
      token: shop.deviceToken,
      body: { sender: MELLAT_SENDER, body: mellatDeposit({ account: shop.account, amount: p.amountFinal, at }), receivedAt: at.toISOString() },
    });
    expect(sent.body.status).toBe('unmatched');
    const leasedBefore = (await stripes(merchantId)).reduce((sum, s) => sum + BigInt(s.lease) - BigInt(s.reserved), 0n);
    expect(leasedBefore).toBeGreaterThan(0n);

    const attached = await gqlOk(
      app.baseUrl,
      `mutation($m: ID!, $p: ID!) { attachBankMessage(messageId: $m, paymentId: $p) { status } }`,
      { m: sent.body.id, p: p.id },
      shop.merchantKey,
    );
    expect(attached.attachBankMessage.status).toBe('confirmed');
    const after = await stripes(merchantId);
    expect(after.every((s) => s.lease === s.reserved)).toBe(true);
    const c = await credit(shop.merchantKey);
    expect(BigInt(c.available)).toBeGreaterThan(0n);
    // The next create leases again from what the balance has free.
    expect((await createPaymentRest(app, shop.apiKey, { amount: 400_000 })).status).toBe(201);
    const free = (await stripes(merchantId)).reduce((sum, s) => sum + BigInt(s.lease) - BigInt(s.reserved), 0n);
    expect(free).toBe(BigInt((await credit(shop.merchantKey)).available));
  });

  it('when a charge takes available credit below zero, live creates answer 402 until a top-up', async () => {
    const account = String(randomInt(1_000_000_000, 9_999_999_999));
    const shop = await makeShop(app, { sandbox: false, credit: 2_000, card: { accountNumber: account } });
    const merchantId = await merchantOf(shop.projectId);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).body;
    expect((await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/cancel`)).status).toBe(200);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 30_000 })).status).toBe(201);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 40_000 })).status).toBe(201);
    expect(await credit(shop.merchantKey)).toEqual({ balance: '2000', reserved: '2000', available: '0' });
    const at = new Date();
    const sent = await request(app.baseUrl, 'POST', '/v1/device/messages', {
      token: shop.deviceToken,
      body: { sender: MELLAT_SENDER, body: mellatDeposit({ account, amount: p.amountFinal, at }), receivedAt: at.toISOString() },
    });
    await gqlOk(app.baseUrl, `mutation($m: ID!, $p: ID!) { attachBankMessage(messageId: $m, paymentId: $p) { status } }`, { m: sent.body.id, p: p.id }, shop.merchantKey);
    expect(await credit(shop.merchantKey)).toEqual({ balance: '1000', reserved: '2000', available: '-1000' });
    expect((await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).status).toBe(402);
    await addMerchantCredit(app.deps, operatorActor, { merchantId, amount: 2_000 });
    expect((await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).status).toBe(201);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).status).toBe(402);
  });
});
