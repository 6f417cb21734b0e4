import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

describe('concurrency', () => {
  it('200 concurrent creates of one amount on one card get 200 distinct final amounts, no errors', async () => {
    const shop = await makeShop(app);
    const results = await Promise.all(Array.from({ length: 200 }, () => createPaymentRest(app, shop.apiKey, { amount: 500_000 })));
    expect(results.filter((r) => r.status !== 201).map((r) => r.body)).toEqual([]);
    const finals = new Set(results.map((r) => r.body.amountFinal));
    expect(finals.size).toBe(200);
    const holds = await app.deps.prisma.amountHold.count({ where: { payment: { projectId: shop.projectId }, releasedAt: null } });
    expect(holds).toBe(200);
  });

  it('four cards on one phone: 120 concurrent creates of one amount, each card under its own lock, all distinct on the phone', async () => {
    // Given a live shop whose four cards share one phone (one match scope)
    const shop = await makeShop(app, { sandbox: false, credit: 100_000_000 });
    for (const n of ['1111', '2222', '3333']) {
      await gqlOk(app.baseUrl, `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`, {
        input: { projectId: shop.projectId, deviceId: shop.deviceId, bankCode: 'mellat', cardNumber: `610433781234${n}`, holderName: 'Shop' },
      }, shop.merchantKey);
    }
    // When 120 creates of one amount arrive at once
    const results = await Promise.all(Array.from({ length: 120 }, () => createPaymentRest(app, shop.apiKey, { amount: 600_000 })));
    // Then every one is made, on every card, and no two share an amount on the phone
    expect(results.filter((r) => r.status !== 201).map((r) => r.body)).toEqual([]);
    expect(new Set(results.map((r) => r.body.amountFinal)).size).toBe(120);
    const byCard = await app.deps.prisma.payment.groupBy({ by: ['cardId'], where: { projectId: shop.projectId }, _count: true });
    expect(byCard).toHaveLength(4);
    // And the codes stay small: among the ten smallest free ones, passed over only while others claim them
    expect(Math.max(...results.map((r) => r.body.code))).toBeLessThanOrEqual(10 * (120 + 40));
  });

  it('four cards on one phone with few codes: exactly as many payments as codes, the rest 503 codes_exhausted, never a 500', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 100_000_000, settings: { maxCode: 5 } });
    for (const n of ['1111', '2222', '3333']) {
      await gqlOk(app.baseUrl, `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`, {
        input: { projectId: shop.projectId, deviceId: shop.deviceId, bankCode: 'mellat', cardNumber: `610433781234${n}`, holderName: 'Shop' },
      }, shop.merchantKey);
    }
    const results = await Promise.all(Array.from({ length: 64 }, () => createPaymentRest(app, shop.apiKey, { amount: 71_000 })));
    const ok = results.filter((r) => r.status === 201);
    expect(new Set(ok.map((r) => r.body.code))).toEqual(new Set([10, 20, 30, 40, 50]));
    expect(ok).toHaveLength(5);
    // 64 at once on 5 codes: a create that found the phone's codes held does not lock its other cards
    // (it did, and two creates each holding a card the other waited for deadlocked until the retries
    // ran out: 409 conflict instead of 503).
    for (const r of results.filter((x) => x.status !== 201)) {
      expect([r.status, r.body.error?.code, r.body.details?.reasons], JSON.stringify(r.body)).toEqual([503, 'no_card_available', ['codes_exhausted']]);
    }
  });

  it('runs out of codes with 503 codes_exhausted instead of reusing an amount', async () => {
    const shop = await makeShop(app, { settings: { maxCode: 3 } });
    const results = await Promise.all(Array.from({ length: 5 }, () => createPaymentRest(app, shop.apiKey, { amount: 70_000 })));
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(3);
    expect(new Set(ok.map((r) => r.body.code))).toEqual(new Set([10, 20, 30]));
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('no_card_available');
      expect(r.body.details.reasons).toEqual(['codes_exhausted']);
    }
  });

  it('20 concurrent creates with one Idempotency-Key make one payment; the rest replay it or are told it is running', async () => {
    const shop = await makeShop(app);
    const body = { amount: 300_000, orderId: 'idem-1' };
    const results = await Promise.all(Array.from({ length: 20 }, () => createPaymentRest(app, shop.apiKey, body, { 'Idempotency-Key': 'key-1' })));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.text)).size).toBe(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('idempotency_conflict');
    }
    expect(await app.deps.prisma.payment.count({ where: { projectId: shop.projectId } })).toBe(1);

    const replay = await createPaymentRest(app, shop.apiKey, body, { 'Idempotency-Key': 'key-1' });
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(created[0]!.text);
    const conflict = await createPaymentRest(app, shop.apiKey, { ...body, amount: 300_010 }, { 'Idempotency-Key': 'key-1' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
    const tooLong = await createPaymentRest(app, shop.apiKey, body, { 'Idempotency-Key': 'k'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect((await createPaymentRest(app, shop.apiKey, body, { 'Idempotency-Key': 'k'.repeat(255) })).status).toBe(201);
  });

  it('does not store failures under an Idempotency-Key', async () => {
    const shop = await makeShop(app);
    const bad = await createPaymentRest(app, shop.apiKey, { amount: 1 }, { 'Idempotency-Key': 'retry-me' });
    expect(bad.status).toBe(400);
    const good = await createPaymentRest(app, shop.apiKey, { amount: 10_000 }, { 'Idempotency-Key': 'retry-me' });
    expect(good.status).toBe(201);
  });

  it('10 concurrent verifies after confirmation: exactly one says alreadyVerified false', async () => {
    const shop = await makeShop(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 80_000 })).body;
    await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id) { status } }`, { id: p.id }, shop.apiKey);
    const results = await Promise.all(Array.from({ length: 10 }, () => request(app.baseUrl, 'POST', `/v1/payments/${p.id}/verify`, { token: shop.apiKey })));
    expect(results.every((r) => r.status === 200 && r.body.verified === true)).toBe(true);
    expect(results.filter((r) => r.body.alreadyVerified === false)).toHaveLength(1);
    const after = (await request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey })).body;
    expect(after.verifyCount).toBe(10);
    expect(after.verifiedAt).not.toBeNull();
  });
});
