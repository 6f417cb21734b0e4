import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { Receiver, type Received } from '../support/receiver.js';
import { confirmedPayment, shopWithEndpoint } from './endpoint.js';

// The target: merchant B's webhook within 1 s of its event, whatever merchant A's endpoint does.
const FAIR_MS = 1_000;
// Slow next to the 1 s target: each of A's attempts holds its worker and its slot twice that long.
const SLOW_MS = 2_000;
const PER_ENDPOINT = 2;

let app: TestApp;
let second: TestApp;
let receiver: Receiver;
const open = new Map<string, number>();
const peak = new Map<string, number>();

/** Answers paths starting with /slow after SLOW_MS, the rest at once; counts requests open per path. */
function respond(r: Received, res: ServerResponse) {
  if (!r.path.startsWith('/slow')) return void res.writeHead(200).end('ok');
  const now = (open.get(r.path) ?? 0) + 1;
  open.set(r.path, now);
  peak.set(r.path, Math.max(peak.get(r.path) ?? 0, now));
  setTimeout(() => {
    open.set(r.path, (open.get(r.path) ?? 1) - 1);
    if (!res.destroyed) res.writeHead(200).end('ok');
  }, SLOW_MS);
}

beforeAll(async () => {
  const env = { WEBHOOK_ENDPOINT_CONCURRENCY: String(PER_ENDPOINT) };
  app = await startTestApp({ env });
  // A second worker process on the same database: the per-endpoint limit holds across both.
  second = await startTestApp({ role: 'worker', env, databaseUrl: app.databaseUrl });
  receiver = await new Receiver().start();
  receiver.respond = respond;
});
afterAll(async () => {
  await receiver.stop();
  await second.stop();
  await app.stop();
});

async function arrival(path: string, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const hit = receiver.received.find((r) => r.path === path);
    if (hit) return hit.at;
    if (Date.now() > until) throw new Error(`nothing on ${path} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('webhook fairness', () => {
  it('merchant B’s webhook arrives within 1 s while merchant A’s slow endpoint has 40 events queued, and A never has more than its limit in flight', async () => {
    const a = await shopWithEndpoint(app, `${receiver.url}/slow-a`);
    const b = await shopWithEndpoint(app, `${receiver.url}/fast-b`);
    // Eight at a time: 40 events queued for A's endpoint within a second or two.
    for (let i = 0; i < 40; i += 8) await Promise.all(Array.from({ length: 8 }, (_, k) => confirmedPayment(app, a.apiKey, 60_000 + (i + k) * 1_000)));

    const event = await confirmedPayment(app, b.apiKey);
    const at = await arrival('/fast-b', 15_000);

    console.log(`fairness: B's webhook ${at - event.committedAt} ms after its event, behind 40 of A's at ${SLOW_MS} ms each`);
    expect(at - event.committedAt).toBeLessThanOrEqual(FAIR_MS);
    // A's first answers in and a second round sent: slots were freed and taken again, by either process.
    const slowHits = () => receiver.received.filter((r) => r.path === '/slow-a').length;
    await expect.poll(slowHits, { interval: 50, timeout: 20_000 }).toBeGreaterThanOrEqual(2 * PER_ENDPOINT);
    expect(peak.get('/slow-a')).toBe(PER_ENDPOINT);
  }, 60_000);
});
