import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDuePayments } from '../../src/domain/payments/expiry-batch.js';
import { holdPaymentRow } from '../support/db-rows.js';
import { createPaymentRest, gaugeValue, gqlOk, makeShop, startTestApp, type TestApp } from '../support/harness.js';

// The expiry sweep (jobs/expire-due.ts) runs in every worker process, several lanes each: they
// claim due payments with SKIP LOCKED, so together they expire each payment exactly once. The API
// here runs no sweep of its own; the sweeps are called directly, all at once.
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(() => app.stop());

describe('the expiry sweep', () => {
  it('sweeps running at once split the due payments: each is expired once, with one event and its fee held', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 100_000_000, settings: { maxCode: 9999 } });
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await createPaymentRest(app, shop.apiKey, { amount: 100_000 + (i % 3) * 1_000_000 });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const later = (await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).body;
    await app.deps.prisma.payment.updateMany({ where: { id: { in: ids } }, data: { expiresAt: new Date(Date.now() - 1_000) } });

    // Four processes' worth of sweeps, small batches so that they meet on the same rows.
    const counts = await Promise.all(Array.from({ length: 4 }, () => expireDuePayments(app.deps, { lanes: 2, batch: 7 })));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(ids.length);
    expect(counts.filter((c) => c > 0).length).toBeGreaterThan(1);

    const rows = await app.deps.prisma.payment.findMany({ where: { id: { in: ids } }, select: { status: true, feeState: true } });
    expect(rows.every((r) => r.status === 'expired' && r.feeState === 'reserved')).toBe(true);
    const events = await app.deps.prisma.event.groupBy({ by: ['paymentId'], where: { paymentId: { in: ids } }, _count: true });
    expect(events).toHaveLength(ids.length);
    expect(events.every((e) => e._count === 1)).toBe(true);
    // Not yet due: left pending.
    expect((await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: later.id } })).status).toBe('pending');
    // Nothing left for the next tick.
    expect(await expireDuePayments(app.deps)).toBe(0);
  }, 60_000);

  it('one batch over two projects: each payment its event, numbered in deadline order, and a delivery where an endpoint takes it', async () => {
    const hooked = await makeShop(app, { settings: { maxCode: 999 } });
    await gqlOk(app.baseUrl, 'mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }', { p: hooked.projectId, u: 'https://shop.example.com/hooks' }, hooked.merchantKey);
    const quiet = await makeShop(app, { settings: { maxCode: 999 } });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await createPaymentRest(app, (i % 2 ? quiet : hooked).apiKey, { amount: 300_000 + i * 10_000 })).body.id);
    // Deadlines in creation order, so the batch claims (and numbers) them in that order.
    for (const [i, id] of ids.entries()) await app.deps.prisma.payment.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 10_000 + i) } });
    expect(await expireDuePayments(app.deps, { lanes: 1, batch: 25 })).toBe(ids.length);
    const events = await app.deps.prisma.event.findMany({ where: { paymentId: { in: ids } }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => [e.paymentId, e.type])).toEqual(ids.map((id) => [id, 'payment.expired']));
    const deliveries = await app.deps.prisma.webhookDelivery.findMany({ where: { paymentId: { in: ids } } });
    expect(deliveries.map((d) => d.eventId).sort()).toEqual(events.filter((e) => e.projectId === hooked.projectId).map((e) => e.id).sort());
    expect(deliveries).toHaveLength(3);
  });

  it('skips a payment another transaction holds, and expires it on a later tick', async () => {
    const shop = await makeShop(app, { settings: { maxCode: 99 } });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 70_000 })).body;
    await app.deps.prisma.payment.update({ where: { id: p.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const release = await holdPaymentRow(app.deps.prisma, p.id);
    // Not waited for: the sweep returns at once without it.
    expect(await expireDuePayments(app.deps)).toBe(0);
    await release();
    expect(await expireDuePayments(app.deps)).toBe(1);
    expect((await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } })).status).toBe('expired');
  });

  it('/metrics shows how far past its deadline the oldest pending payment is, 0 once the sweep ran', async () => {
    // No worker here, as when none runs in production: the gauge is what an operator alerts on.
    const shop = await makeShop(app, { settings: { maxCode: 99 } });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 80_000 })).body;
    const gauge = () => gaugeValue(app.baseUrl, 'gateway_expiry_overdue_seconds');
    expect(await gauge()).toBe(0);
    await app.deps.prisma.payment.update({ where: { id: p.id }, data: { expiresAt: new Date(Date.now() - 30_000) } });
    const overdue = await gauge();
    expect(overdue).toBeGreaterThanOrEqual(30);
    expect(overdue).toBeLessThan(60);
    expect(await expireDuePayments(app.deps)).toBe(1);
    expect(await gauge()).toBe(0);
  });
});
