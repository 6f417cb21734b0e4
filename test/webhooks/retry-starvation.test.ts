import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { Receiver, type Received } from '../support/receiver.js';
import { confirmedPayment, shopWithEndpoint } from './endpoint.js';

const FAIR_MS = 1_000;
const SLOW_MS = 9_000;
// Four workers: two take first attempts only, two take anything.
// The first retry 0.3 s after a failure (30 s scaled).
const ENV = { WEBHOOK_CONCURRENCY: '4', WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_RETRY_SCALE: '0.01' };

let app: TestApp;
let receiver: Receiver;
let slowOpen = 0;

/** /flaky-* fails its first request of each delivery at once and hangs 9 s on the retries. */
function respond(r: Received, res: ServerResponse) {
  if (!r.path.startsWith('/flaky')) return void res.writeHead(200).end('ok');
  const seen = receiver.received.filter((x) => x.json?.deliveryId === r.json?.deliveryId).length;
  if (seen === 1) return void res.writeHead(500).end('down');
  slowOpen++;
  setTimeout(() => {
    slowOpen--;
    if (!res.destroyed) res.writeHead(200).end('ok');
  }, SLOW_MS);
}

beforeAll(async () => {
  app = await startTestApp({ env: ENV });
  receiver = await new Receiver().start();
  receiver.respond = respond;
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

describe('webhook retries and first attempts', () => {
  it('a first attempt is sent at once while retries to slow endpoints hold every worker that takes retries', async () => {
    const flaky = Promise.all(
      ['x', 'y', 'z'].map(async (name) => {
        const shop = await shopWithEndpoint(app, `${receiver.url}/flaky-${name}`);
        await Promise.all([60_000, 61_000].map((amount) => confirmedPayment(app, shop.apiKey, amount)));
      }),
    );
    const b = await shopWithEndpoint(app, `${receiver.url}/fresh`);
    await flaky;
    const until = Date.now() + 15_000;
    while (slowOpen < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(slowOpen).toBe(2);

    const event = await confirmedPayment(app, b.apiKey);
    let at: number | undefined;
    while (at === undefined && Date.now() < event.committedAt + 5_000) {
      at = receiver.received.find((r) => r.path === '/fresh')?.at;
      if (at === undefined) await new Promise((r) => setTimeout(r, 10));
    }
    expect(at, 'the first attempt arrived').toBeDefined();
    expect(at! - event.committedAt).toBeLessThanOrEqual(FAIR_MS);
    expect(slowOpen).toBe(2);
  }, 60_000);
});
