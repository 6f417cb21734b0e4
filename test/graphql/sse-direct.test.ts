import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

/**
 * Subscriptions over server-sent events are written straight onto Node's response
 * (src/graphql/sse.ts); everything else that asks for an event stream is still Yoga's. Both must
 * speak one protocol (GraphQL over SSE, distinct connections), byte for byte.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(async () => {
  await app.stop();
});

/** Reads an event stream until `until` holds for what arrived, or the stream ends; then lets it go. */
async function readStream(res: Response, until: (text: string) => boolean, ms = 10_000): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + ms;
  let text = '';
  try {
    while (!until(text)) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(text)}`);
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

const events = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => ({ event: block.split('\n')[0]!.slice(7), data: block.split('\n')[1]!.slice(6) }));

/** `gateway_sse_streams_open` from /metrics (open outside production when METRICS_TOKEN is unset). */
async function openStreams(): Promise<number> {
  const text = (await request(app.baseUrl, 'GET', '/metrics')).text;
  return Number(/^gateway_sse_streams_open (\d+)$/m.exec(text)?.[1] ?? NaN);
}

const CHECKOUT = 'subscription($token: String!) { checkoutStatus(token: $token) { status } }';

describe('subscriptions over server-sent events', () => {
  it('serves the checkout page’s EventSource (GET): a comment, the current view, then a change made by a REST call', async () => {
    // Given a pending payment and its page subscribed as the page does (GET, query and variables in the URL)
    const shop = await makeShop(app);
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 71_000 })).body;
    const url = `${app.baseUrl}/graphql?query=${encodeURIComponent(CHECKOUT)}&variables=${encodeURIComponent(JSON.stringify({ token: payment.token }))}`;
    const res = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('content-encoding')).toBe('none');

    // When the payer cancels it on the page
    const reading = readStream(res, (t) => t.includes('"canceled"'));
    await new Promise((r) => setTimeout(r, 200));
    expect((await request(app.baseUrl, 'POST', `/v1/checkout/${payment.token}/cancel`)).status).toBe(200);

    // Then the stream said pending first, then canceled
    const text = await reading;
    expect(text.startsWith(':\n\n')).toBe(true);
    const next = events(text).filter((e) => e.event === 'next');
    expect(next.map((e) => JSON.parse(e.data).data.checkoutStatus.status)).toEqual(['pending', 'canceled']);
  });

  it('takes a POST whose Accept lists the event stream before multipart (as urql asks), and ends the stream when the client leaves', async () => {
    const shop = await makeShop(app);
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 72_000 })).body;
    const streamsBefore = app.deps.notifier!.stats().feeds;
    const res = await fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, multipart/mixed' },
      body: JSON.stringify({ query: CHECKOUT, variables: { token: payment.token } }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    // Served on the direct path: /metrics counts it among this process's open streams
    expect(await openStreams()).toBeGreaterThanOrEqual(1);
    const text = await readStream(res, (t) => t.includes('"pending"'));
    expect(text).toBe(':\n\nevent: next\ndata: {"data":{"checkoutStatus":{"status":"pending"}}}\n\n');
    // The reader cancelled: the server lets the feed go.
    const until = Date.now() + 5_000;
    while (app.deps.notifier!.stats().feeds > streamsBefore && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(app.deps.notifier!.stats().feeds).toBe(streamsBefore);
    expect(await openStreams()).toBe(0);
  });

  it('leaves to Yoga a query over SSE, a syntax error and a subscription a caller may not open, with the same answers', async () => {
    const sse = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${app.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers }, body: JSON.stringify(body) });

    // A query: one `next` and `complete`
    const query = await readStream(await sse({ query: '{ __typename }' }), (t) => t.includes('event: complete'));
    expect(events(query)).toEqual([
      { event: 'next', data: '{"data":{"__typename":"Query"}}' },
      { event: 'complete', data: '' },
    ]);

    // A syntax error: the catalog's invalid_request
    const broken = await readStream(await sse({ query: 'subscription { checkoutStatus(' }), (t) => t.includes('event: complete'));
    expect(JSON.parse(events(broken)[0]!.data).errors[0].extensions.code).toBe('invalid_request');

    // A project-key subscription without a key: refused with the catalog's code, no HTTP hints
    const refused = await sse({ query: 'subscription { paymentEvents { id } }' });
    const refusedText = await readStream(refused, (t) => t.includes('event: complete'));
    const refusal = JSON.parse(events(refusedText)[0]!.data);
    expect(refusal.errors[0].extensions.code).toBe('unauthorized');
    expect(JSON.stringify(refusal)).not.toContain('"http"');
  });

  it('gives the project key its own payment events over a direct stream', async () => {
    const shop = await makeShop(app);
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 73_000 })).body;
    const res = await fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${shop.apiKey}` },
      body: JSON.stringify({ query: 'subscription { paymentEvents { type paymentId payment { status } } }' }),
    });
    expect(res.status).toBe(200);
    const reading = readStream(res, (t) => t.includes('payment.rejected'));
    await new Promise((r) => setTimeout(r, 300));
    await request(app.baseUrl, 'POST', `/v1/payments/${payment.id}/reject`, { token: shop.apiKey, body: { reason: 'no stock' } });
    const [first] = events(await reading);
    expect(JSON.parse(first!.data)).toEqual({ data: { paymentEvents: { type: 'payment.rejected', paymentId: payment.id, payment: { status: 'rejected' } } } });
  });
});
