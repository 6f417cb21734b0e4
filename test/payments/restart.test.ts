import { afterAll, describe, expect, it } from 'vitest';
import { createPaymentRest, makeShop, startTestApp, type TestApp } from '../support/harness.js';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.stop().catch(() => undefined);
});

describe('expiry after a restart', () => {
  it('payments whose deadline passed while no worker ran are expired within 5 s of a worker starting, the queue emptied or not', async () => {
    const api = await startTestApp({ role: 'api' });
    apps.push(api);
    const shop = await makeShop(api, { settings: { paymentTimeLimitSeconds: 5 } });
    const first = (await createPaymentRest(api, shop.apiKey, { amount: 40_000 })).body;
    const second = (await createPaymentRest(api, shop.apiKey, { amount: 41_000 })).body;
    // The queue is lost (as after restoring a backup without it): the deadline is the payment's own.
    await api.deps.prisma.$executeRawUnsafe(`DELETE FROM pgboss.job`);
    await api.stop();

    const deadline = Math.max(Date.parse(first.expiresAt), Date.parse(second.expiresAt));
    await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now() + 200)));

    const worker = await startTestApp({ role: 'worker', databaseUrl: api.databaseUrl });
    apps.push(worker);
    const started = Date.now();
    const statuses = async () =>
      (await worker.deps.prisma.payment.findMany({ where: { id: { in: [first.id, second.id] } }, orderBy: { amountRequested: 'asc' } })).map((p) => p.status);
    let now = await statuses();
    while (now.some((s) => s !== 'expired') && Date.now() - started < 5_000) {
      await new Promise((r) => setTimeout(r, 200));
      now = await statuses();
    }
    expect(now).toEqual(['expired', 'expired']);
  });
});
