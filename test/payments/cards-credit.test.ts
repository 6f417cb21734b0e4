import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const credit = async (merchantKey: string) =>
  (await gqlOk(app.baseUrl, `{ viewer { merchant { credit { balance reserved available } } } }`, {}, merchantKey)).viewer.merchant.credit;

describe('card selection', () => {
  it('answers 503 no_active_card when the project has no active card', async () => {
    const shop = await makeShop(app);
    await gqlOk(app.baseUrl, `mutation($id: ID!) { updateCard(id: $id, input: { active: false }) { active } }`, { id: shop.cardId }, shop.merchantKey);
    const res = await createPaymentRest(app, shop.apiKey, { amount: 50_000 });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: { code: 'no_card_available', details: { reasons: ['no_active_card'] } }, details: { reasons: ['no_active_card'] } });
  });

  it('needs a live card’s device to have sent a heartbeat in the last 5 minutes', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000 });
    expect((await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).status).toBe(201);
    await app.deps.prisma.device.update({ where: { id: shop.deviceId! }, data: { lastHeartbeatAt: new Date(Date.now() - 5 * 60_000 - 1000) } });
    const offline = await createPaymentRest(app, shop.apiKey, { amount: 50_000 });
    expect(offline.status).toBe(503);
    expect(offline.body.details.reasons).toEqual(['device_offline']);
    await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken });
    expect((await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).status).toBe(201);
  });

  it('enforces the daily count and amount caps, and reports every reason that applied', async () => {
    const shop = await makeShop(app, { card: { dailyCountCap: 2 } });
    expect((await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).status).toBe(201);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).status).toBe(201);
    const capped = await createPaymentRest(app, shop.apiKey, { amount: 50_000 });
    expect(capped.body.details.reasons).toEqual(['daily_count_cap_reached']);

    const second = await gqlOk(
      app.baseUrl,
      `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`,
      { input: { projectId: shop.projectId, bankCode: 'saman', cardNumber: '6219861012345678', holderName: 'B', dailyAmountCap: 100_000 } },
      shop.merchantKey,
    );
    const big = await createPaymentRest(app, shop.apiKey, { amount: 90_000 });
    expect(big.status).toBe(201);
    const over = await createPaymentRest(app, shop.apiKey, { amount: 60_000 });
    expect(over.status).toBe(503);
    expect([...over.body.details.reasons].sort()).toEqual(['daily_amount_cap_reached', 'daily_count_cap_reached']);
    expect(second.createCard.id).toBeTruthy();
  });

  it('spreads payments over cards, least recently used first', async () => {
    const shop = await makeShop(app);
    await gqlOk(
      app.baseUrl,
      `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`,
      { input: { projectId: shop.projectId, bankCode: 'saman', cardNumber: '6219861012345678', holderName: 'B' } },
      shop.merchantKey,
    );
    for (let i = 0; i < 4; i++) await createPaymentRest(app, shop.apiKey, { amount: 40_000 });
    const perCard = await app.deps.prisma.payment.groupBy({ by: ['cardId'], where: { projectId: shop.projectId }, _count: true });
    expect(perCard.map((c) => c._count)).toEqual([2, 2]);
  });
});

describe('credit', () => {
  it('reserves a live payment’s fee and answers 402 when available credit is short', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 3_000 });
    for (let i = 0; i < 3; i++) expect((await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).status).toBe(201);
    expect(await credit(shop.merchantKey)).toEqual({ balance: '3000', reserved: '3000', available: '0' });
    const short = await createPaymentRest(app, shop.apiKey, { amount: 20_000 });
    expect(short.status).toBe(402);
    expect(short.body.error.code).toBe('merchant_credit_exhausted');
  });

  it('answers 402 before 503 when both apply', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 0 });
    await app.deps.prisma.device.update({ where: { id: shop.deviceId! }, data: { lastHeartbeatAt: null } });
    expect((await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).status).toBe(402);
  });

  it('never over-commits credit under concurrent creates', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 5_000 });
    const results = await Promise.all(Array.from({ length: 12 }, () => createPaymentRest(app, shop.apiKey, { amount: 20_000 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 402)).toHaveLength(7);
    expect(await credit(shop.merchantKey)).toEqual({ balance: '5000', reserved: '5000', available: '0' });
  });

  it('computes the fee as clamp(floor(amountFinal × bps / 10,000), min, max)', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 10_000_000 });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 3_000_000 })).body;
    const row = await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.feeAmount).toBe(BigInt(Math.floor((3_000_000 + p.code) / 100)));
    const floor = (await createPaymentRest(app, shop.apiKey, { amount: 10_000 })).body;
    expect((await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: floor.id } })).feeAmount).toBe(1_000n);
    const capped = (await createPaymentRest(app, shop.apiKey, { amount: 900_000_000 })).body;
    expect((await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: capped.id } })).feeAmount).toBe(50_000n);
  });

  it('a rejection releases the reservation; a confirmation debits it through the ledger', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 2_000 });
    const a = (await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).body;
    const b = (await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).body;
    await request(app.baseUrl, 'POST', `/v1/payments/${a.id}/reject`, { token: shop.apiKey, body: { reason: 'out of stock' } });
    expect(await credit(shop.merchantKey)).toEqual({ balance: '2000', reserved: '1000', available: '1000' });
    await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "seen on statement") { status } }`, { id: b.id }, shop.apiKey);
    expect(await credit(shop.merchantKey)).toEqual({ balance: '1000', reserved: '0', available: '1000' });
    const ledger = await gqlOk(app.baseUrl, `{ viewer { merchant { ledger(first: 5) { edges { node { kind amount balanceAfter paymentId } } } } } }`, {}, shop.merchantKey);
    expect(ledger.viewer.merchant.ledger.edges[0].node).toEqual({ kind: 'fee', amount: '-1000', balanceAfter: '1000', paymentId: b.id });
  });

  it('an expired live payment keeps its fee reserved through the late window, then releases it', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000, settings: { lateWindowSeconds: 3600 } });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).body;
    expect(await credit(shop.merchantKey)).toEqual({ balance: '1000', reserved: '1000', available: '0' });
    // Its deadlines are moved instead of waited for; the worker's sweeps act on them as on any.
    const row = () => app.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    const until = async (done: (r: Awaited<ReturnType<typeof row>>) => boolean) => {
      const started = Date.now();
      let r = await row();
      while (!done(r) && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        r = await row();
      }
      return r;
    };
    await app.deps.prisma.payment.update({ where: { id: p.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await until((r) => r.status === 'expired')).toMatchObject({ status: 'expired', feeState: 'reserved' });
    expect(await credit(shop.merchantKey)).toEqual({ balance: '1000', reserved: '1000', available: '0' });

    await app.deps.prisma.payment.update({ where: { id: p.id }, data: { lateUntil: new Date(Date.now() - 1) } });
    expect(await until((r) => r.feeState === 'released')).toMatchObject({ status: 'expired', feeState: 'released' });
    expect(await credit(shop.merchantKey)).toEqual({ balance: '1000', reserved: '0', available: '1000' });
  });

  it('sandbox payments never touch credit', async () => {
    const shop = await makeShop(app, { credit: 0 });
    expect((await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).status).toBe(201);
    expect(await credit(shop.merchantKey)).toEqual({ balance: '0', reserved: '0', available: '0' });
  });

});
