import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, makeShop, startTestApp, type TestApp } from '../support/harness.js';

// docs/integration.md "1. Create a payment": the code is drawn at random among the ten smallest
// free codes of the amount in its match scope, so it stays small and is still not predictable.
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const CHOICES = 10;

describe('unique codes', () => {
  it('stay among the ten smallest free codes: the n-th payment of one amount on one card has a code ≤ 10×(n+10)', async () => {
    // Given one card and 30 payments of the same amount, none of them ended
    const shop = await makeShop(app);
    const codes: number[] = [];
    for (let n = 0; n < 30; n++) {
      const res = await createPaymentRest(app, shop.apiKey, { amount: 10_000 });
      expect(res.status).toBe(201);
      codes.push(res.body.code);
      // Then each code is a multiple of 10, no other live payment's, and among the ten smallest free ones
      expect(res.body.code % 10).toBe(0);
      expect(res.body.code).toBeLessThanOrEqual(10 * (n + CHOICES));
    }
    expect(new Set(codes).size).toBe(30);
    expect(Math.max(...codes)).toBeLessThanOrEqual(10 * (30 + CHOICES));
  });

  it('are not always the smallest free code', async () => {
    // Given one card and 20 payments of one amount
    const shop = await makeShop(app);
    const held: number[] = [];
    const tookSmallest: boolean[] = [];
    for (let n = 0; n < 20; n++) {
      const { code } = (await createPaymentRest(app, shop.apiKey, { amount: 20_000 })).body;
      const smallestFree = Array.from({ length: 40 }, (_, i) => 10 * (i + 1)).find((c) => !held.includes(c));
      tookSmallest.push(code === smallestFree);
      held.push(code);
    }
    // Then the draw did not always pick the smallest free code (the chance that 20 draws all do is 10^-20)
    expect(tookSmallest.every(Boolean)).toBe(false);
  });

  it('reuse a small code once its payment’s hold is released, and differ between amounts only by scope', async () => {
    const shop = await makeShop(app, { settings: { maxCode: 12 } });
    const made = [];
    for (let n = 0; n < 12; n++) made.push((await createPaymentRest(app, shop.apiKey, { amount: 30_000 })).body);
    expect(made.map((p) => p.code).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => 10 * (i + 1)));
    // When the hold of the payment with code 20 ends
    const twenty = made.find((p) => p.code === 20)!;
    await app.deps.prisma.amountHold.update({ where: { paymentId: twenty.id }, data: { heldUntil: new Date(Date.now() - 1000) } });
    // Then the only free code, 20, is given again
    expect((await createPaymentRest(app, shop.apiKey, { amount: 30_000 })).body.code).toBe(20);
    // And another amount on the same card starts again from the smallest codes
    expect((await createPaymentRest(app, shop.apiKey, { amount: 40_000 })).body.code).toBeLessThanOrEqual(10 * CHOICES);
  });
});
