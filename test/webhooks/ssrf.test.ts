import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/domain/webhooks/http-sender.js';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

let receiver: Receiver;
let port: number;

beforeAll(async () => {
  receiver = await new Receiver().start();
  port = Number(new URL(receiver.url).port);
});
afterAll(() => receiver.stop());

/** A resolver standing in for DNS (these machines have none): maps names to fixed addresses. */
function fakeDns(table: Record<string, string>): LookupFunction {
  return ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const address = table[hostname];
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    if (!address) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    const family = address.includes(':') ? 6 : 4;
    if (all) return callback(null, [{ address, family }]);
    return callback(null, address, family);
  }) as LookupFunction;
}

const send = (url: string, lookup?: LookupFunction) =>
  postWebhook({ url, body: '{}', headers: { 'content-type': 'application/json' }, allowPrivate: false, lookup, timeoutMs: 2000 });

describe('webhook SSRF filter', () => {
  it.each([
    ['loopback', `http://127.0.0.1:PORT/x`],
    ['IPv6 loopback', `http://[::1]:PORT/x`],
    ['IPv4-mapped loopback', `http://[::ffff:127.0.0.1]:PORT/x`],
    ['unspecified', `http://0.0.0.0:PORT/x`],
    ['private 10/8', `http://10.1.2.3:PORT/x`],
    ['CGNAT 100.64/10', `http://100.64.0.1:PORT/x`],
    ['unique-local fc00::/7', `http://[fc00::1]:PORT/x`],
    ['link-local metadata', `http://169.254.169.254:PORT/latest/meta-data`],
  ])('refuses %s before connecting', async (_name, template) => {
    const before = receiver.received.length;
    const result = await send(template.replace('PORT', String(port)));
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/not allowed/);
    expect(receiver.received.length).toBe(before);
  });

  it('refuses a name that resolves to loopback (checked after resolution, so rebinding cannot slip through)', async () => {
    const before = receiver.received.length;
    const result = await send(`http://hooks.merchant.example:${port}/x`, fakeDns({ 'hooks.merchant.example': '127.0.0.1' }));
    expect(result.error).toMatch(/not allowed/);
    expect(receiver.received.length).toBe(before);
  });

  it('lets the same request through when private targets are allowed (dev/test setting)', async () => {
    const before = receiver.received.length;
    const result = await postWebhook({ url: `http://hooks.merchant.example:${port}/ok`, body: '{}', headers: {}, allowPrivate: true, lookup: fakeDns({ 'hooks.merchant.example': '127.0.0.1' }) });
    expect(result.status).toBe(200);
    expect(receiver.received.length).toBe(before + 1);
  });

  it('records a refused delivery as a failed attempt with the reason', async () => {
    const app: TestApp = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: '0' } });
    try {
      const shop = await makeShop(app);
      await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: shop.projectId, u: `${receiver.url}/blocked` }, shop.merchantKey);
      const test = await gqlOk(app.baseUrl, `mutation { sendTestWebhook { status attempts { responseStatus error } } }`, {}, shop.apiKey);
      expect(test.sendTestWebhook.status).toBe('failed');
      expect(test.sendTestWebhook.attempts[0].responseStatus).toBeNull();
      expect(test.sendTestWebhook.attempts[0].error).toMatch(/not allowed/);
      expect(receiver.received.filter((r) => r.path === '/blocked')).toHaveLength(0);
      const live = await makeShop(app, { sandbox: false, credit: 100_000 });
      const http = await request(app.baseUrl, 'POST', '/graphql', {
        token: live.merchantKey,
        body: { query: `mutation($p: ID!) { setWebhookEndpoint(projectId: $p, url: "http://shop.example.com/hook") { secret } }`, variables: { p: live.projectId } },
      });
      expect(http.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'url' }] } });
      expect((await createPaymentRest(app, live.apiKey, { amount: 20_000 })).status).toBe(201);
    } finally {
      await app.stop();
    }
  });
});
