import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK, createPaymentRest, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp({ env: { PUBLIC_BASE_URL: 'https://pay.example.com' } });
  shop = await makeShop(app, { settings: { maxCode: 9999 } });
});
afterAll(() => app.stop());

const create = (body: Record<string, unknown>) => createPaymentRest(app, shop.apiKey, body);

async function expectInvalid(body: Record<string, unknown>, field: string) {
  const res = await create(body);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('invalid_request');
  expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
}

describe('POST /v1/payments', () => {
  it('answers 201 with the whole payment record, nulls included, and a checkout URL', async () => {
    const started = Date.now();
    const res = await create({ amount: 120_000, orderId: 'ord-1' });
    expect(res.status).toBe(201);
    const p = res.body;
    expect(Object.keys(p)).toEqual([
      'id', 'status', 'amountRequested', 'amountFinal', 'code', 'amountMode', 'currency', 'orderId', 'description', 'token', 'reviewRequired',
      'reviewReason', 'confirmationSource', 'confirmedAt', 'verifiedAt', 'verifyCount', 'expiresAt', 'payerPhone', 'payerCardLast4',
      'payerTrackingNumber', 'payerReportedPaidAt', 'bankMessageId', 'amountReceived', 'confirmedLate', 'manualNote', 'refundedAmount',
      'metadata', 'sandbox', 'createdAt', 'updatedAt', 'checkoutUrl',
    ]);
    expect(p).toMatchObject({ status: 'pending', amountRequested: '120000', amountMode: 'unique_code', orderId: 'ord-1', description: null, reviewRequired: false, verifyCount: 0, sandbox: true, metadata: null });
    expect(p.code % 10).toBe(0);
    expect(p.code).toBeGreaterThanOrEqual(10);
    expect(p.code).toBeLessThanOrEqual(99_990);
    expect(p.amountFinal).toBe(String(120_000 + p.code));
    expect(p.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.checkoutUrl).toBe(`https://pay.example.com/pay/${p.token}`);
    expect(p.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const expires = Date.parse(p.expiresAt) - Date.parse(p.createdAt);
    expect(expires).toBe(900_000);
    expect(Date.parse(p.createdAt)).toBeGreaterThanOrEqual(started - 1000);
  });

  it('accepts amounts at both limits, as integers or digit strings in any script', async () => {
    expect((await create({ amount: 10_000 })).status).toBe(201);
    expect((await create({ amount: '1000000000' })).body.amountRequested).toBe('1000000000');
    expect((await create({ amount: '۱۲۰۰۰۰' })).body.amountRequested).toBe('120000');
    expect((await create({ amount: '١٥٠٠٠٠' })).body.amountRequested).toBe('150000');
  });

  it.each([9_999, 1_000_000_001, '12a', 10_000.5, -20_000, '', null, true])('refuses amount %j', async (amount) => {
    await expectInvalid({ amount }, 'amount');
  });

  it('requires an https callbackUrl of at most 2048 characters', async () => {
    await expectInvalid({ amount: 50_000, callbackUrl: undefined }, 'callbackUrl');
    await expectInvalid({ amount: 50_000, callbackUrl: 'http://shop.example.com/x' }, 'callbackUrl');
    await expectInvalid({ amount: 50_000, callbackUrl: 'not a url' }, 'callbackUrl');
    const base = 'https://shop.example.com/?q=';
    expect((await create({ amount: 50_000, callbackUrl: base + 'a'.repeat(2048 - base.length) })).status).toBe(201);
    await expectInvalid({ amount: 50_000, callbackUrl: base + 'a'.repeat(2049 - base.length) }, 'callbackUrl');
  });

  it('checks orderId, description and payerPhone at their limits', async () => {
    expect((await create({ amount: 50_000, orderId: 'x'.repeat(64), description: 'd'.repeat(300), payerPhone: '0'.repeat(20) })).status).toBe(201);
    await expectInvalid({ amount: 50_000, orderId: '' }, 'orderId');
    await expectInvalid({ amount: 50_000, orderId: 'x'.repeat(65) }, 'orderId');
    await expectInvalid({ amount: 50_000, description: 'd'.repeat(301) }, 'description');
    await expectInvalid({ amount: 50_000, payerPhone: '123456789' }, 'payerPhone');
    await expectInvalid({ amount: 50_000, payerPhone: '0'.repeat(21) }, 'payerPhone');
    expect((await create({ amount: 50_000, payerPhone: '۰۹۱۲۳۴۵۶۷۸۹' })).body.payerPhone).toBe('09123456789');
  });

  it('returns metadata exactly as sent, key order included, within its limits', async () => {
    const metadata = { zeta: 'last-first', alpha: 1.5, mid: true, none: null, ['k'.repeat(40)]: 's'.repeat(500) };
    const res = await create({ amount: 50_000, metadata });
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body.metadata)).toBe(JSON.stringify(metadata));
    const again = await request(app.baseUrl, 'GET', `/v1/payments/${res.body.id}`, { token: shop.apiKey });
    expect(JSON.stringify(again.body.metadata)).toBe(JSON.stringify(metadata));
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]));
    expect((await create({ amount: 50_000, metadata: twenty })).status).toBe(201);
    await expectInvalid({ amount: 50_000, metadata: { ...twenty, k20: 1 } }, 'metadata');
    await expectInvalid({ amount: 50_000, metadata: { ['k'.repeat(41)]: 1 } }, 'metadata.' + 'k'.repeat(41));
    await expectInvalid({ amount: 50_000, metadata: { a: 's'.repeat(501) } }, 'metadata.a');
    await expectInvalid({ amount: 50_000, metadata: { a: { nested: true } } }, 'metadata.a');
  });

  it('names every bad field at once', async () => {
    const res = await create({ amount: 5, callbackUrl: 'http://x', payerPhone: '1', orderId: '' });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['amount', 'callbackUrl', 'orderId', 'payerPhone']);
    expect(res.body.details).toEqual(res.body.error.details);
  });

  it('answers 422 when the callback host is not among the allowed hosts, 201 when it is', async () => {
    const strict = await makeShop(app, { settings: { allowedCallbackHosts: ['shop.example.com'] } });
    const denied = await createPaymentRest(app, strict.apiKey, { amount: 50_000, callbackUrl: 'https://evil.example.net/cb' });
    expect(denied.status).toBe(422);
    expect(denied.body.error.code).toBe('callback_host_not_allowed');
    expect((await createPaymentRest(app, strict.apiKey, { amount: 50_000, callbackUrl: CALLBACK })).status).toBe(201);
    const badAndDenied = await createPaymentRest(app, strict.apiKey, { amount: 1, callbackUrl: 'https://evil.example.net/cb' });
    expect(badAndDenied.status).toBe(400);
  });

  it('answers 401 before anything else, and to a merchant key', async () => {
    const bad = await request(app.baseUrl, 'POST', '/v1/payments', { token: 'sk_test_unknownunknownunknownunknown1234', rawBody: '{oops' });
    expect(bad.status).toBe(401);
    const merchant = await createPaymentRest(app, shop.merchantKey, { amount: 50_000 });
    expect(merchant.status).toBe(401);
    expect(merchant.body.error.code).toBe('unauthorized');
  });

  it('answers 400 invalid_json for a malformed body', async () => {
    const res = await request(app.baseUrl, 'POST', '/v1/payments', { token: shop.apiKey, rawBody: '{"amount": 10000,', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_json');
  });
});
