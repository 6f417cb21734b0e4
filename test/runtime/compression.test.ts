import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, makeShop, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(() => app.stop());

const gzip = { 'accept-encoding': 'gzip' };

describe('compressed text responses', () => {
  it('serves GraphiQL compressed, with a hint for the key in its headers editor', async () => {
    const res = await fetch(`${app.baseUrl}/graphql`, { headers: { ...gzip, accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const html = await res.text();
    expect(html).toContain('Bearer sk_test_…');
  });

  it('compresses the hosted pages and their assets', async () => {
    for (const path of ['/pay/assets/checkout.js', '/pay/assets/link.js', '/pay/assets/checkout.css', '/openapi.json']) {
      const res = await fetch(`${app.baseUrl}${path}`, { headers: gzip });
      expect(res.headers.get('content-encoding'), path).toBe('gzip');
    }
  });

  it('leaves server-sent events uncompressed, so each event arrives as it is written', async () => {
    // Given a pending payment followed over SSE
    const shop = await makeShop(app);
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 40_000 })).body;
    const query = encodeURIComponent('subscription($t: String!) { checkoutStatus(token: $t) { status } }');
    const variables = encodeURIComponent(JSON.stringify({ t: payment.token }));
    const res = await fetch(`${app.baseUrl}/graphql?query=${query}&variables=${variables}`, { headers: { ...gzip, accept: 'text/event-stream' } });

    // Then the stream is not compressed and its first event arrives while the stream stays open
    expect(res.headers.get('content-encoding') ?? 'none').toBe('none');
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('"pending"')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: next');
    await reader.cancel();
  });
});
