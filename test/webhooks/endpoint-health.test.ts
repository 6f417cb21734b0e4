import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISABLE_AFTER_MS, nextHealth } from '../../src/domain/webhooks/health.js';
import { gqlOk, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';
import { confirmedPayment, setEndpoint, shopWithEndpoint } from './endpoint.js';

let app: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  // Retries far away: each test sees the first attempt only.
  app = await startTestApp({ env: { WEBHOOK_RETRY_SCALE: '100' } });
  receiver = await new Receiver().start();
  receiver.respond = (r, res) => res.writeHead(r.path.startsWith('/down') ? 503 : 200).end(r.path.startsWith('/down') ? 'down' : 'ok');
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

const HEALTH = `query($p: ID) { webhookEndpoint(projectId: $p) { active failingSince disabledAt disabledReason recentAttempts recentSuccessRate } }`;

async function settled(paymentId: string) {
  for (let i = 0; i < 100; i++) {
    const d = await app.deps.prisma.webhookDelivery.findFirst({ where: { paymentId }, include: { attempts: true } });
    if (d && d.attempts.length > 0) return d;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no attempt recorded');
}

describe('webhook endpoint health', () => {
  it('decides: a success clears the streak, a failure starts it, 5 days of failures disable', () => {
    const at = new Date('2026-11-24T00:00:00Z');
    const longAgo = new Date(at.getTime() - DISABLE_AFTER_MS);
    expect(nextHealth({ active: true, failingSince: longAgo }, true, at)).toEqual({ failingSince: null, disable: false });
    expect(nextHealth({ active: true, failingSince: null }, false, at)).toEqual({ failingSince: at, disable: false });
    expect(nextHealth({ active: true, failingSince: new Date(longAgo.getTime() + 1) }, false, at).disable).toBe(false);
    expect(nextHealth({ active: true, failingSince: longAgo }, false, at)).toEqual({ failingSince: longAgo, disable: true });
  });

  it('shows the recent success rate, to the merchant and to the project key', async () => {
    const shop = await shopWithEndpoint(app, `${receiver.url}/up`);
    await settled((await confirmedPayment(app, shop.apiKey)).id);
    await setEndpoint(app, shop, `${receiver.url}/down-rate`);
    await settled((await confirmedPayment(app, shop.apiKey, 61_000)).id);

    const byMerchant = await gqlOk(app.baseUrl, HEALTH, { p: shop.projectId }, shop.merchantKey);
    expect(byMerchant.webhookEndpoint).toMatchObject({ active: true, recentAttempts: 2, recentSuccessRate: 0.5, disabledAt: null });
    expect(byMerchant.webhookEndpoint.failingSince).not.toBeNull();
    const byProject = await gqlOk(app.baseUrl, HEALTH, {}, shop.apiKey);
    expect(byProject.webhookEndpoint).toEqual(byMerchant.webhookEndpoint);
  });

  it('disables an endpoint whose every attempt failed for 5 days, shows why and when, and queues nothing more for it', async () => {
    const shop = await shopWithEndpoint(app, `${receiver.url}/down-long`);
    const fiveDaysAgo = new Date(Date.now() - DISABLE_AFTER_MS - 60_000);
    await app.deps.prisma.webhookEndpoint.update({ where: { id: shop.endpointId }, data: { failingSince: fiveDaysAgo } });

    await settled((await confirmedPayment(app, shop.apiKey)).id);

    const { webhookEndpoint: e } = await gqlOk(app.baseUrl, HEALTH, { p: shop.projectId }, shop.merchantKey);
    expect(e.active).toBe(false);
    expect(new Date(e.failingSince).getTime()).toBe(fiveDaysAgo.getTime());
    expect(Date.now() - new Date(e.disabledAt).getTime()).toBeLessThan(60_000);
    expect(e.disabledReason).toMatch(/failed for 5 days/);
    const later = await confirmedPayment(app, shop.apiKey, 61_000);
    expect(await app.deps.prisma.webhookDelivery.count({ where: { paymentId: later.id } })).toBe(0);
  });

  it('stops the pending deliveries of a disabled endpoint, and setWebhookEndpoint re-enables it', async () => {
    const shop = await shopWithEndpoint(app, `${receiver.url}/down-again`);
    const p = await confirmedPayment(app, shop.apiKey);
    const first = await settled(p.id);
    await app.deps.prisma.webhookEndpoint.update({
      where: { id: shop.endpointId },
      data: { active: false, disabledAt: new Date(), disabledReason: 'Every delivery attempt failed for 5 days (test).' },
    });
    await app.deps.prisma.webhookDelivery.update({ where: { id: first.id }, data: { nextAttemptAt: new Date() } });
    await app.deps.jobs.send('deliver-webhook', { deliveryId: first.id, attempt: 2 });
    for (let i = 0; i < 100; i++) {
      if ((await app.deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: first.id } })).status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await app.deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: first.id }, include: { attempts: true } })).attempts).toHaveLength(1);
    expect((await app.deps.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: first.id } })).status).toBe('failed');

    await setEndpoint(app, shop, `${receiver.url}/up-again`);
    const { webhookEndpoint: e } = await gqlOk(app.baseUrl, HEALTH, { p: shop.projectId }, shop.merchantKey);
    expect(e).toMatchObject({ active: true, failingSince: null, disabledAt: null, disabledReason: null });
    const next = await confirmedPayment(app, shop.apiKey, 61_000);
    expect((await settled(next.id)).attempts[0]!.responseStatus).toBe(200);
  });
});
