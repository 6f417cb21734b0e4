import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTransition, lockPayment } from '../../src/domain/payments/transitions.js';
import { attemptDelivery } from '../../src/domain/webhooks/deliveries.js';
import { verifySignature } from '../../src/domain/webhooks/signature.js';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

let app: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp();
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

async function shopWithEndpoint(path: string) {
  const shop = await makeShop(app);
  const set = await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: shop.projectId, u: `${receiver.url}${path}` }, shop.merchantKey);
  return { ...shop, secret: set.setWebhookEndpoint.secret as string };
}

const onPath = (path: string) => receiver.received.filter((r) => r.path === path);
async function waitOnPath(path: string, count: number, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (onPath(path).length < count) {
    if (Date.now() > until) throw new Error(`${path}: ${onPath(path).length} of ${count}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return onPath(path);
}

const BODY_FIELDS = ['event', 'paymentId', 'status', 'orderId', 'amountRequested', 'amountFinal', 'confirmedAt', 'confirmationSource', 'sandbox', 'metadata', 'reason', 'deliveryId', 'sentAt'];

describe('webhook deliveries', () => {
  it('sends payment.confirmed with every field docs/webhooks.md lists, signed so the receiver can verify it', async () => {
    const shop = await shopWithEndpoint('/confirmed');
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 60_000, orderId: 'w-1', metadata: { cart: 'c1' } })).body;
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
    const [hit] = await waitOnPath('/confirmed', 1);
    expect(hit!.headers['x-service-event']).toBe('payment.confirmed');
    expect(hit!.headers['x-service-delivery']).toBe(hit!.json.deliveryId);
    expect(verifySignature(String(hit!.headers['x-service-signature']), hit!.body, shop.secret)).toBe(true);
    expect(verifySignature(String(hit!.headers['x-service-signature']), hit!.body, 'whsec_wrong')).toBe(false);
    expect(verifySignature(String(hit!.headers['x-service-signature']), hit!.body.replace('60000', '60001'), shop.secret)).toBe(false);
    expect(Object.keys(hit!.json)).toEqual(BODY_FIELDS);
    expect(hit!.json).toMatchObject({
      event: 'payment.confirmed', paymentId: p.id, status: 'confirmed', orderId: 'w-1', amountRequested: '60000', amountFinal: p.amountFinal,
      confirmationSource: 'auto_sms', sandbox: true, metadata: { cart: 'c1' }, reason: null,
    });
    expect(hit!.json.sentAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const { verify } = await import('../../docs/examples/webhook-receiver.mjs');
    expect(verify(hit!.headers['x-service-signature'], hit!.body, shop.secret)).toBe(true);
    expect(verify(hit!.headers['x-service-signature'], hit!.body, 'whsec_wrong')).toBe(false);
    const t = Number(/t=(\d+)/.exec(String(hit!.headers['x-service-signature']))![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
  });

  it('sends payment.rejected with its reason, and a payment’s events in order', async () => {
    const shop = await shopWithEndpoint('/rejected');
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 61_000 })).body;
    await request(app.baseUrl, 'POST', `/v1/payments/${p.id}/reject`, { token: shop.apiKey, body: { reason: 'fraud suspected' } });
    const [hit] = await waitOnPath('/rejected', 1);
    expect(hit!.json).toMatchObject({ event: 'payment.rejected', status: 'rejected', reason: 'fraud suspected' });

    const late = await shopWithEndpoint('/ordered');
    const q = (await createPaymentRest(app, late.apiKey, { amount: 62_000 })).body;
    const { expirePayment } = await import('../../src/domain/payments/expiry.js');
    await app.deps.prisma.payment.update({ where: { id: q.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expirePayment(app.deps, q.id);
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: late.apiKey, body: { paymentId: q.id } });
    const hits = await waitOnPath('/ordered', 2);
    expect(hits.map((h) => [h.json.event, h.json.status])).toEqual([['payment.expired', 'expired'], ['payment.confirmed', 'confirmed']]);
    expect(hits[0]!.json.deliveryId).not.toBe(hits[1]!.json.deliveryId);
  });

  it('signs with both secrets during the 24 hours after a rotation', async () => {
    const shop = await shopWithEndpoint('/rotated');
    const rotated = await gqlOk(app.baseUrl, `mutation($p: ID!) { rotateWebhookSecret(projectId: $p) { secret } }`, { p: shop.projectId }, shop.merchantKey);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 63_000 })).body;
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
    const [hit] = await waitOnPath('/rotated', 1);
    const header = String(hit!.headers['x-service-signature']);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifySignature(header, hit!.body, rotated.rotateWebhookSecret.secret)).toBe(true);
    expect(verifySignature(header, hit!.body, shop.secret)).toBe(true);
  });

  it('sends nothing for a state change that rolled back after its job was enqueued', async () => {
    const shop = await shopWithEndpoint('/rolled-back');
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 64_000 })).body;
    await expect(
      app.deps.prisma.$transaction(async (tx) => {
        const locked = await lockPayment(tx, p.id);
        await applyTransition(tx, app.deps.jobs, locked, 'reject', { rejectReason: 'never' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // A change of another payment, committed after it: jobs are fetched oldest first, so once this
    // one's webhook is in and recorded, a job that had survived the rollback would have been sent too.
    const after = (await createPaymentRest(app, shop.apiKey, { amount: 64_100 })).body;
    await request(app.baseUrl, 'POST', `/v1/payments/${after.id}/reject`, { token: shop.apiKey, body: { reason: 'committed' } });
    const [marker] = await waitOnPath('/rolled-back', 1);
    expect(marker!.json.paymentId).toBe(after.id);
    const recorded = () => app.deps.prisma.webhookDelivery.count({ where: { paymentId: after.id, status: 'succeeded' } });
    await expect.poll(recorded, { interval: 20, timeout: 10_000 }).toBe(1);
    expect(onPath('/rolled-back')).toHaveLength(1);
    expect(await app.deps.prisma.webhookDelivery.count({ where: { paymentId: p.id } })).toBe(0);
    expect((await request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey })).body.status).toBe('pending');
  });

  it('records every attempt, re-sends by hand with the same deliveryId, and sends a signed test event', async () => {
    const shop = await shopWithEndpoint('/manual');
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 65_000 })).body;
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
    await waitOnPath('/manual', 1);
    const q = `query($p: ID) { webhookDeliveries(paymentId: $p, first: 5) { edges { node { id status eventType attemptCount attempts { attemptNumber manual responseStatus durationMs } } } } }`;
    let list = await gqlOk(app.baseUrl, q, { p: p.id }, shop.apiKey);
    for (let i = 0; i < 50 && list.webhookDeliveries.edges[0]?.node.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      list = await gqlOk(app.baseUrl, q, { p: p.id }, shop.apiKey);
    }
    const delivery = list.webhookDeliveries.edges[0].node;
    expect(delivery).toMatchObject({ status: 'succeeded', eventType: 'payment.confirmed', attemptCount: 1, attempts: [{ attemptNumber: 1, manual: false, responseStatus: 200 }] });
    const again = await gqlOk(app.baseUrl, `mutation($d: ID!) { redeliverWebhook(deliveryId: $d) { attemptCount attempts { manual } } }`, { d: delivery.id }, shop.apiKey);
    expect(again.redeliverWebhook).toEqual({ attemptCount: 2, attempts: [{ manual: false }, { manual: true }] });
    const hits = onPath('/manual');
    expect(hits).toHaveLength(2);
    expect(hits[1]!.json.deliveryId).toBe(hits[0]!.json.deliveryId);
    expect(hits[1]!.headers['x-service-delivery']).toBe(delivery.id);

    const none = await gqlOk(app.baseUrl, q, { p: 'not-a-uuid' }, shop.apiKey);
    expect(none.webhookDeliveries.edges).toEqual([]);

    const test = await gqlOk(app.baseUrl, `mutation { sendTestWebhook { status test attempts { responseStatus } } }`, {}, shop.apiKey);
    expect(test.sendTestWebhook).toEqual({ status: 'succeeded', test: true, attempts: [{ responseStatus: 200 }] });
    const sample = onPath('/manual')[2]!;
    expect(verifySignature(String(sample.headers['x-service-signature']), sample.body, shop.secret)).toBe(true);
    expect(Object.keys(sample.json)).toEqual(BODY_FIELDS);
  });

  it('measures deposit → webhook receipt latency', async () => {
    const shop = await shopWithEndpoint('/latency');
    const samples: number[] = [];
    for (let i = 0; i < 30; i++) {
      const p = (await createPaymentRest(app, shop.apiKey, { amount: 70_000 + i * 100 })).body;
      const started = Date.now();
      await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
      const hits = await waitOnPath('/latency', i + 1);
      samples.push(hits[i]!.at - started);
    }
    samples.sort((a, b) => a - b);
    const pct = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)];
    console.log(`deposit → webhook received over ${samples.length} payments: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${samples.at(-1)} ms`);
    expect(samples).toHaveLength(30);
  });
});

describe('delivery order', () => {
  it('a later event of a payment waits for the earlier one’s first attempt', async () => {
    // An API-only runtime: no worker picks the jobs up, so the test drives the attempts itself.
    const api = await startTestApp({ role: 'api' });
    try {
      const shop = await makeShop(api);
      await gqlOk(api.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: shop.projectId, u: `${receiver.url}/order` }, shop.merchantKey);
      const p = (await createPaymentRest(api, shop.apiKey, { amount: 66_000 })).body;
      const { expirePayment } = await import('../../src/domain/payments/expiry.js');
      await api.deps.prisma.payment.update({ where: { id: p.id }, data: { expiresAt: new Date(Date.now() - 1) } });
      await expirePayment(api.deps, p.id);
      await request(api.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
      const [first, second] = await api.deps.prisma.webhookDelivery.findMany({ where: { paymentId: p.id }, include: { event: true }, orderBy: { event: { seq: 'asc' } } });
      expect([first!.eventType, second!.eventType]).toEqual(['payment.expired', 'payment.confirmed']);
      expect(await attemptDelivery(api.deps, second!.id)).toBe('deferred');
      expect(await attemptDelivery(api.deps, first!.id)).toBe('succeeded');
      expect(await attemptDelivery(api.deps, second!.id)).toBe('succeeded');
      expect(onPath('/order').map((h) => h.json.event)).toEqual(['payment.expired', 'payment.confirmed']);
    } finally {
      await api.stop();
    }
  });
});
