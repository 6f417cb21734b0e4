import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, makeShop, request, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { spawnTs, waitFor, type Spawned } from '../support/process.js';
import { subscribeSse } from '../support/sse.js';

const apps: TestApp[] = [];
const clients: Client[] = [];
let a: TestApp;
let b: { baseUrl: string };
let child: Spawned;
let childB: Spawned;
/** Process C: a separate OS process (`npm start`'s entry point) that makes the changes. */
let c: { baseUrl: string; deps: TestApp['deps'] };

beforeAll(async () => {
  // A (in this process) and B (its own OS process) serve subscribers; C, a third process, makes changes.
  a = await startTestApp({ role: 'api' });
  apps.push(a);
  childB = spawnTs('src/main.ts', ['--role', 'api'], testEnv(a.databaseUrl));
  child = spawnTs('src/main.ts', ['--role', 'all'], testEnv(a.databaseUrl));
  const urlOf = (p: Spawned) => `http://127.0.0.1:${/listening on port (\d+)/.exec(p.stdout())![1]}`;
  await waitFor(() => /listening on port \d+/.test(child.stdout()) && /listening on port \d+/.test(childB.stdout()), 45_000, 'processes B and C');
  b = { baseUrl: urlOf(childB) };
  c = { baseUrl: urlOf(child), deps: a.deps };
});
afterAll(async () => {
  for (const cl of clients) await cl.dispose();
  for (const app of apps) await app.stop();
  for (const p of [child, childB]) {
    p.child.kill('SIGTERM');
    await p.exit;
  }
});

type Stream<T> = { values: T[]; received: number[]; completed?: () => boolean; waitFor: (n: number, ms?: number) => Promise<T[]>; stop: () => void };

function collect<T>(): Omit<Stream<T>, 'stop'> {
  const values: T[] = [];
  const received: number[] = [];
  return {
    values,
    received,
    waitFor: async (n, ms = 10_000) => {
      const until = Date.now() + ms;
      while (values.length < n) {
        if (Date.now() > until) throw new Error(`got ${values.length} of ${n} events: ${JSON.stringify(values)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return values;
    },
  };
}

function viaWebSocket<T>(app: TestApp, query: string, variables: Record<string, unknown>, authorization?: string): Stream<T> {
  const client = createClient({ url: `${app.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: authorization ? { Authorization: authorization } : {}, retryAttempts: 0 });
  clients.push(client);
  const s = collect<T>();
  const stop = client.subscribe<T>({ query, variables }, {
    next: (v) => {
      s.received.push(Date.now());
      s.values.push(v as T);
    },
    error: (e) => s.values.push({ error: e } as T),
    complete: () => undefined,
  });
  return { ...s, stop };
}

function viaSse<T>(app: { baseUrl: string }, query: string, variables: Record<string, unknown>, authorization?: string): Stream<T> {
  return subscribeSse<T>(app.baseUrl, query, variables, authorization);
}

const CHECKOUT = `subscription($token: String!) { checkoutStatus(token: $token) { status payerReportedPaidAt receiptCode } }`;
type CheckoutEvent = { data: { checkoutStatus: { status: string; payerReportedPaidAt: string | null; receiptCode: string | null } } };

describe('subscriptions across processes', () => {
  it('checkoutStatus: the current view first, then every change made by another process, on graphql-ws and SSE', async () => {
    const shop = await makeShop(a);
    const p = (await createPaymentRest(c as TestApp, shop.apiKey, { amount: 90_000 })).body;
    const ws = viaWebSocket<CheckoutEvent>(a, CHECKOUT, { token: p.token });
    const sse = viaSse<CheckoutEvent>(b, CHECKOUT, { token: p.token });
    await ws.waitFor(1);
    await sse.waitFor(1);
    for (const s of [ws, sse]) expect(s.values[0]!.data.checkoutStatus).toEqual({ status: 'pending', payerReportedPaidAt: null, receiptCode: null });

    await request(c.baseUrl, 'POST', `/v1/checkout/${p.token}/report`, { body: { payerCardLast4: '1111' } });
    await request(c.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
    for (const s of [ws, sse]) {
      const values = await s.waitFor(3);
      if (s.completed) {
        for (let i = 0; i < 50 && !s.completed(); i++) await new Promise((r) => setTimeout(r, 20));
        expect(s.completed(), 'the stream completes once the payment is settled').toBe(true);
      }
      expect(values[1]!.data.checkoutStatus.payerReportedPaidAt).not.toBeNull();
      expect(values[2]!.data.checkoutStatus.status).toBe('confirmed');
      expect(values[2]!.data.checkoutStatus.receiptCode).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
      s.stop();
    }
  });

  it('paymentUpdated and paymentEvents need the project key and carry its payments only', async () => {
    const shop = await makeShop(a);
    const other = await makeShop(a);
    const p = (await createPaymentRest(c as TestApp, shop.apiKey, { amount: 91_000 })).body;
    const q = (await createPaymentRest(c as TestApp, other.apiKey, { amount: 92_000 })).body;

    const anonymous = viaWebSocket<{ error?: unknown; errors?: { extensions: { code: string } }[] }>(a, `subscription($id: ID!) { paymentUpdated(id: $id) { status } }`, { id: p.id });
    const refused = await anonymous.waitFor(1);
    expect(JSON.stringify(refused[0])).toContain('unauthorized');

    const updated = viaWebSocket<{ data: { paymentUpdated: { status: string } } }>(a, `subscription($id: ID!) { paymentUpdated(id: $id) { id status } }`, { id: p.id }, `Bearer ${shop.apiKey}`);
    const events = viaSse<{ data: { paymentEvents: { type: string; paymentId: string; payment: { status: string } } } }>(
      b,
      `subscription { paymentEvents { type paymentId payment { status } } }`,
      {},
      `Bearer ${shop.apiKey}`,
    );
    await updated.waitFor(1);
    await new Promise((r) => setTimeout(r, 300));
    await request(c.baseUrl, 'POST', `/v1/payments/${q.id}/reject`, { token: other.apiKey, body: { reason: 'other project' } });
    await request(c.baseUrl, 'POST', `/v1/payments/${p.id}/reject`, { token: shop.apiKey, body: { reason: 'no stock' } });
    expect((await updated.waitFor(2))[1]!.data.paymentUpdated.status).toBe('rejected');
    const got = await events.waitFor(1);
    expect(got[0]!.data.paymentEvents).toEqual({ type: 'payment.rejected', paymentId: p.id, payment: { status: 'rejected' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(events.values).toHaveLength(1);
    updated.stop();
    events.stop();
  });

  it('measures status change → subscriber latency across processes', async () => {
    const shop = await makeShop(a);
    const samples: number[] = [];
    for (let i = 0; i < 30; i++) {
      const p = (await createPaymentRest(c as TestApp, shop.apiKey, { amount: 100_000 + i * 100 })).body;
      const ws = viaWebSocket<CheckoutEvent>(a, CHECKOUT, { token: p.token });
      await ws.waitFor(1);
      const started = Date.now();
      await request(c.baseUrl, 'POST', `/v1/checkout/${p.token}/cancel`);
      await ws.waitFor(2);
      samples.push(ws.received[1]! - started);
      ws.stop();
    }
    samples.sort((x, y) => x - y);
    const pct = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)];
    console.log(`status change (process C) → graphql-ws subscriber (process A), ${samples.length} changes: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms`);
    expect(samples).toHaveLength(30);
  });
});
