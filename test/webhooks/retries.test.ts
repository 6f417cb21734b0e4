import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_INTERVALS_S } from '../../src/domain/webhooks/schedule.js';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

// The schedule's 56,910 s come to 5.7 s: the first retries fall inside the 1-second poll below and
// show only as 'not early', the last five (180 ms .. 2.9 s) show the schedule's growth.
const SCALE = 0.0001;
// Delayed jobs are picked up by a 1-second poll: an attempt may come up to that much after its time,
// and its own work on a loaded machine (seen: 0.6 s) after that.
const POLL_SLACK_MS = 2_000;

let app: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_RETRY_SCALE: String(SCALE) } });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

async function confirmedPaymentTo(path: string) {
  const shop = await makeShop(app);
  await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: shop.projectId, u: `${receiver.url}${path}` }, shop.merchantKey);
  const p = (await createPaymentRest(app, shop.apiKey, { amount: 60_000 })).body;
  await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
  return p;
}

describe('webhook retries', () => {
  it('retries a failing endpoint 10 times on the scaled schedule with one deliveryId, then gives up', async () => {
    receiver.respond = (r, res) => res.writeHead(r.path === '/down' ? 500 : 200).end('nope');
    const p = await confirmedPaymentTo('/down');
    const until = Date.now() + 60_000;
    let delivery = await app.deps.prisma.webhookDelivery.findFirst({ where: { paymentId: p.id } });
    while (delivery?.status !== 'failed' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      delivery = await app.deps.prisma.webhookDelivery.findFirst({ where: { paymentId: p.id } });
    }
    const hits = receiver.received.filter((r) => r.path === '/down');
    expect(delivery?.status).toBe('failed');
    expect(hits).toHaveLength(11);
    expect(new Set(hits.map((h) => h.json.deliveryId)).size).toBe(1);
    expect(new Set(hits.map((h) => h.headers['x-service-delivery'])).size).toBe(1);
    expect(new Set(hits.map((h) => h.json.sentAt)).size).toBe(11);
    for (let i = 1; i < hits.length; i++) {
      const gap = hits[i]!.at - hits[i - 1]!.at;
      const planned = RETRY_INTERVALS_S[i - 1]! * 1000 * SCALE;
      expect(gap, `gap before retry ${i}`).toBeGreaterThanOrEqual(planned * 0.9 - 5);
      expect(gap, `gap before retry ${i}`).toBeLessThanOrEqual(planned * 1.1 + POLL_SLACK_MS);
    }
    const attempts = await app.deps.prisma.webhookAttempt.findMany({ where: { deliveryId: delivery!.id }, orderBy: { attemptNumber: 'asc' } });
    expect(attempts.map((a) => a.responseStatus)).toEqual(Array(11).fill(500));
    expect(attempts.every((a) => a.responseExcerpt === 'nope')).toBe(true);
  }, 90_000);

  it('waits for a Retry-After longer than the next interval', async () => {
    // 2.5 s scaled: well past the 3 ms interval plus the poll, which is all an ignored Retry-After would wait.
    const RETRY_AFTER_S = 25_000;
    receiver.respond = (r, res) => {
      const first = receiver.received.filter((x) => x.path === '/busy').length === 1;
      if (r.path === '/busy' && first) res.writeHead(503, { 'retry-after': String(RETRY_AFTER_S) }).end('busy');
      else res.writeHead(200).end('ok');
    };
    const p = await confirmedPaymentTo('/busy');
    const started = Date.now();
    let hits = receiver.received.filter((r) => r.path === '/busy');
    while (hits.length < 2 && Date.now() - started < 20_000) {
      await new Promise((r) => setTimeout(r, 100));
      hits = receiver.received.filter((r) => r.path === '/busy');
    }
    expect(hits).toHaveLength(2);
    const gap = hits[1]!.at - hits[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 * SCALE * 0.99);
    expect(gap).toBeLessThanOrEqual(RETRY_AFTER_S * 1000 * SCALE + POLL_SLACK_MS);
    // The attempt is recorded once the receiver's answer is in, a moment after the receiver saw it.
    let d = await app.deps.prisma.webhookDelivery.findFirstOrThrow({ where: { paymentId: p.id } });
    for (let i = 0; i < 50 && d.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      d = await app.deps.prisma.webhookDelivery.findFirstOrThrow({ where: { paymentId: p.id } });
    }
    expect(d.status).toBe('succeeded');
  }, 30_000);

  it('does not follow redirects: a 3xx is a failed attempt and the target is never asked', async () => {
    receiver.respond = (r, res) => {
      if (r.path === '/moved') res.writeHead(302, { location: `${receiver.url}/elsewhere` }).end();
      else res.writeHead(200).end('ok');
    };
    const p = await confirmedPaymentTo('/moved');
    await receiver.waitFor(receiver.received.length + 1);
    // The attempt is recorded once the answer is in, a moment after the receiver saw it.
    const attempt = () => app.deps.prisma.webhookAttempt.findFirst({ where: { delivery: { paymentId: p.id } } });
    await expect.poll(async () => (await attempt())?.responseStatus, { interval: 20, timeout: 10_000 }).toBe(302);
    expect(receiver.received.filter((r) => r.path === '/elsewhere')).toHaveLength(0);
  });
});
