import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KeepAlive } from '../../src/events/keep-alive.js';
import { useSharedKeepAliveSse } from '../../src/graphql/transport-plugins.js';
import { createPaymentRest, makeShop, startTestApp, type TestApp } from '../support/harness.js';
import { subscribeSse, type SseStream } from '../support/sse.js';

/** Issue 22 item 5: what an idle subscription holds (figures: `npm run bench -- subscriptions`). */
describe('one keep-alive for every idle stream', () => {
  it('pings each stream once a period, a slot per tick, and stops when none is left', () => {
    vi.useFakeTimers();
    try {
      // Given 24 streams on a 12 s keep-alive of 12 slots
      const pings: number[] = [];
      const keepAlive = new KeepAlive<number>((n) => pings.push(n), 12_000, 12);
      for (let n = 0; n < 24; n++) keepAlive.add(n);

      // When one tick passes, then a whole period
      vi.advanceTimersByTime(1_000);
      const firstTick = pings.length;
      vi.advanceTimersByTime(11_000);

      // Then a tick pings one slot (2 streams), and a period every stream exactly once
      expect(firstTick).toBe(2);
      expect([...pings].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, n) => n));

      // And a stream that leaves is pinged no more; with none left there is no timer
      keepAlive.delete(0);
      pings.length = 0;
      vi.advanceTimersByTime(12_000);
      expect(pings).not.toContain(0);
      for (let n = 1; n < 24; n++) keepAlive.delete(n);
      expect(keepAlive.size).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the shared SSE keep-alive', () => {
  it('writes a comment to every idle stream once a period, and completes a stream as Yoga does', async () => {
    // Given a Yoga server with the shared keep-alive at 120 ms and a subscription that waits
    let release: () => void = () => undefined;
    const schema = createSchema({
      typeDefs: 'type Query { ok: Boolean } type Subscription { tick: Int }',
      resolvers: {
        Subscription: {
          tick: {
            subscribe: async function* () {
              yield { tick: 1 };
              await new Promise<void>((resolve) => (release = resolve));
              yield { tick: 2 };
            },
          },
        },
      },
    });
    const yoga = createYoga({ schema, plugins: [useSharedKeepAliveSse(120)], logging: false });
    const res = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { tick }' }),
    });
    const reader = res.body!.getReader();
    let text = '';
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
    };

    // When it stays idle after its first event for a few periods
    await readUntil(() => text.includes('"tick":1'));
    const idleFrom = text.length;
    await readUntil(() => (text.slice(idleFrom).match(/:\n\n/g) ?? []).length >= 2);

    // Then comments kept it alive, and its end is `event: complete`
    release();
    await readUntil(() => text.includes('event: complete'));
    expect(text.startsWith(':\n\nevent: next\ndata: {"data":{"tick":1}}\n\n')).toBe(true);
    expect(text.slice(idleFrom)).toMatch(/^(:\n\n)+event: next\ndata: {"data":{"tick":2}}\n\nevent: complete\ndata:\n\n$/);
  });
});

describe('idle SSE subscriptions', () => {
  let app: TestApp;
  const streams: SseStream<unknown>[] = [];
  beforeAll(async () => {
    app = await startTestApp({ role: 'api' });
  });
  afterAll(async () => {
    for (const s of streams) s.stop();
    await app.stop();
  });

  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('hold no timer each, and still speak Yoga’s event stream (a comment first, then `event: next`)', async () => {
    // Given 100 checkout pages subscribed to one payment's status
    const shop = await makeShop(app);
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 70_000 })).body;
    const query = 'subscription($t: String!) { checkoutStatus(token: $t) { status } }';
    const before = timers();
    for (let i = 0; i < 100; i++) streams.push(subscribeSse(app.baseUrl, query, { t: payment.token }));
    for (const s of streams) await s.waitFor(1);

    // Then the process holds about as many timers as before (Yoga's own SSE keeps an interval per stream)
    expect(timers() - before).toBeLessThan(20);
    expect(streams[0]!.values[0]).toEqual({ data: { checkoutStatus: { status: 'pending' } } });

    // And the raw stream is byte for byte Yoga's format
    const res = await fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query, variables: { t: payment.token } }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('"pending"')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toBe(':\n\nevent: next\ndata: {"data":{"checkoutStatus":{"status":"pending"}}}\n\n');
    await reader.cancel();
  });
});
