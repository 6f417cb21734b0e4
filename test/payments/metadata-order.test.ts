import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK, createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

/**
 * Metadata comes back exactly as sent, key order included, even for keys that look like integers
 * (a JavaScript object lists "42" and "1" first). Every assertion reads the answer's raw text: a
 * parsed object would hide the order.
 */
const SENT = '{"b":1,"42":"x","a":true,"1":null}';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app);
  receiver = await new Receiver().start();
  await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: shop.projectId, u: `${receiver.url}/hooks` }, shop.merchantKey);
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

/** The text of the `metadata` value in a JSON answer, as written (one occurrence expected). */
function metadataText(text: string): string {
  const at = text.indexOf('"metadata":');
  expect(at, text).toBeGreaterThanOrEqual(0);
  const start = at + '"metadata":'.length;
  return text.slice(start, text.indexOf('}', start) + 1);
}

/** A REST create whose body is written by hand, so the metadata's key order is the text's. */
function createRaw(headers: Record<string, string> = {}) {
  const body = `{"amount":50000,"callbackUrl":"${CALLBACK}","metadata":${SENT}}`;
  return request(app.baseUrl, 'POST', '/v1/payments', { token: shop.apiKey, rawBody: body, headers: { 'content-type': 'application/json', ...headers } });
}

describe('metadata keeps the merchant’s key order', () => {
  it('REST: the create’s answer, a read, the list and an idempotent replay', async () => {
    const created = await createRaw();
    expect(created.status).toBe(201);
    expect(metadataText(created.text)).toBe(SENT);

    const read = await request(app.baseUrl, 'GET', `/v1/payments/${created.body.id}`, { token: shop.apiKey });
    expect(metadataText(read.text)).toBe(SENT);
    const list = await request(app.baseUrl, 'GET', '/v1/payments', { token: shop.apiKey });
    expect(list.status).toBe(200);
    expect([...list.text.matchAll(/"metadata":(\{[^}]*\})/g)].map((m) => m[1])).toEqual([SENT]);

    const key = { 'idempotency-key': `order-${created.body.id}` };
    const first = await createRaw(key);
    const replay = await createRaw(key);
    expect(replay.body.id).toBe(first.body.id);
    expect(metadataText(first.text)).toBe(SENT);
    expect(metadataText(replay.text)).toBe(SENT);
  });

  it('GraphQL: createPayment with metadata in its variables, and a read of the payment', async () => {
    const query = `mutation($input: CreatePaymentInput!) { createPayment(input: $input) { id metadata } }`;
    const body = `{"query":${JSON.stringify(query)},"variables":{"input":{"amount":50000,"callbackUrl":"${CALLBACK}","metadata":${SENT}}}}`;
    const created = await request(app.baseUrl, 'POST', '/graphql', { token: shop.apiKey, rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(created.status).toBe(200);
    expect(metadataText(created.text)).toBe(SENT);

    const rest = await createRaw();
    const read = await request(app.baseUrl, 'POST', '/graphql', { token: shop.apiKey, body: { query: `{ payment(id: "${rest.body.id}") { metadata } }` } });
    expect(metadataText(read.text)).toBe(SENT);
  });

  it('webhooks: the body of payment.confirmed', async () => {
    const created = await createRaw();
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: created.body.id } });
    const deadline = Date.now() + 15_000;
    let hit = receiver.received.find((r) => r.json?.paymentId === created.body.id);
    while (!hit && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      hit = receiver.received.find((r) => r.json?.paymentId === created.body.id);
    }
    expect(hit?.json.event).toBe('payment.confirmed');
    expect(metadataText(hit!.body)).toBe(SENT);
  });

  it('a body without such keys is read as before, and a repeated key keeps its first place and last value', async () => {
    const body = `{"amount":50000,"callbackUrl":"${CALLBACK}","metadata":{"z":1,"7":2,"z":3}}`;
    const created = await request(app.baseUrl, 'POST', '/v1/payments', { token: shop.apiKey, rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(metadataText(created.text)).toBe('{"z":3,"7":2}');
    const plain = await createPaymentRest(app, shop.apiKey, { amount: 50_000, metadata: { cart: 'c1', n: 2 } });
    expect(metadataText(plain.text)).toBe('{"cart":"c1","n":2}');
  });
});
