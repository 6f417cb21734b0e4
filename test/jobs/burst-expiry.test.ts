import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, makeShop, startTestApp, type TestApp } from '../support/harness.js';

// docs/integration.md "1. Create a payment": a pending payment is expired within 5 s of expiresAt.
const BOUND_MS = 5_000;
const BURST = 200;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

describe('expiry under a burst', () => {
  it('200 payments created together are all expired within 5 s of their deadlines by one worker process', async () => {
    // Shortest time limit, codes up to 9,999: 200 payments of a few amounts fit one card.
    const shop = await makeShop(app, { settings: { paymentTimeLimitSeconds: 5, maxCode: 9999 } });
    let next = 0;
    const ids: string[] = [];
    const lane = async () => {
      while (next < BURST) {
        const n = next++;
        const res = await createPaymentRest(app, shop.apiKey, { amount: 100_000 + (n % 4) * 1_000_000 });
        if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
        ids.push(res.body.id);
      }
    };
    await Promise.all(Array.from({ length: 10 }, lane));

    const expired = async () =>
      app.deps.prisma.payment.findMany({ where: { id: { in: ids }, status: 'expired' }, select: { expiresAt: true, expiredAt: true } });
    const lastDeadline = (await app.deps.prisma.payment.aggregate({ where: { id: { in: ids } }, _max: { expiresAt: true } }))._max.expiresAt!;
    let rows = await expired();
    while (rows.length < BURST && Date.now() < lastDeadline.getTime() + BOUND_MS + 5_000) {
      await new Promise((r) => setTimeout(r, 250));
      rows = await expired();
    }

    expect(rows).toHaveLength(BURST);
    const lateness = rows.map((r) => r.expiredAt!.getTime() - r.expiresAt.getTime()).sort((x, y) => x - y);
    console.log(`burst expiry: ${BURST} payments, lateness p50 ${lateness[BURST / 2]} ms, max ${lateness.at(-1)} ms`);
    expect(lateness.at(-1)).toBeLessThanOrEqual(BOUND_MS);
  }, 60_000);
});
