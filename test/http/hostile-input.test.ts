import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';

let app: TestApp;
let sandbox: Awaited<ReturnType<typeof makeShop>>;
let live: Awaited<ReturnType<typeof makeShop>>;
let payment: { id: string; token: string };

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

beforeAll(async () => {
  app = await startTestApp();
  sandbox = await makeShop(app);
  live = await makeShop(app, { sandbox: false, credit: 1_000_000 });
  payment = (await createPaymentRest(app, sandbox.apiKey, { amount: 20_000 })).body;
  await gqlOk(
    app.baseUrl,
    'mutation($i: CreatePaymentLinkInput!) { createPaymentLink(input: $i) { slug } }',
    { i: { projectId: sandbox.projectId, slug: 'hostile-link', title: 'Link', minAmount: 10_000, maxAmount: 100_000 } },
    sandbox.merchantKey,
  );
});
afterAll(() => app.stop());

function expectRefused(res: { status: number; body: any }, field: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalid_request');
  expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
}

describe('NUL and unpaired surrogates are refused as 400 naming the field', () => {
  it.each([
    ['orderId', NUL],
    ['description', NUL],
    ['orderId', LONE],
    ['description', 'x\udfff'],
  ])('POST /v1/payments %s with %j', async (field, value) => {
    expectRefused(await createPaymentRest(app, sandbox.apiKey, { amount: 20_000, [field]: value }), field);
  });

  it('refuses a metadata value and a metadata key holding NUL', async () => {
    expectRefused(await createPaymentRest(app, sandbox.apiKey, { amount: 20_000, metadata: { note: NUL } }), 'metadata.note');
    const key = await createPaymentRest(app, sandbox.apiKey, { amount: 20_000, metadata: { ['k\u0000']: 1 } });
    expect(key.status).toBe(400);
    expect(key.body.error.code).toBe('invalid_request');
  });

  it('refuses the reject reason, the simulation token, the report fields and the link payment fields', async () => {
    expectRefused(await request(app.baseUrl, 'POST', `/v1/payments/${payment.id}/reject`, { token: sandbox.apiKey, body: { reason: NUL } }), 'reason');
    expectRefused(await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: sandbox.apiKey, body: { token: NUL } }), 'token');
    expectRefused(await request(app.baseUrl, 'POST', `/v1/checkout/${payment.token}/report`, { body: { payerTrackingNumber: NUL } }), 'payerTrackingNumber');
    expectRefused(await request(app.baseUrl, 'POST', '/v1/links/hostile-link/payments', { body: { amount: 20_000, description: NUL } }), 'description');
  });

  it('refuses ?orderId=%00 on the list', async () => {
    expectRefused(await request(app.baseUrl, 'GET', '/v1/payments?orderId=%00', { token: sandbox.apiKey }), 'orderId');
  });

  it('refuses a device sender holding NUL', async () => {
    const res = await request(app.baseUrl, 'POST', '/v1/device/messages', {
      token: live.deviceToken,
      body: { sender: 'Bank\u0000Mellat', body: 'hello', receivedAt: new Date().toISOString() },
    });
    expectRefused(res, 'sender');
  });

  it.each([
    ['createPayment', 'mutation($v: String) { createPayment(input: { amount: 20000, callbackUrl: "https://shop.example.com/r", orderId: $v }) { id } }', 'orderId', 'apiKey'],
    ['rejectPayment', 'mutation($v: String!, $id: ID!) { rejectPayment(id: $id, reason: $v) { id } }', 'reason', 'apiKey'],
    ['createDevice', 'mutation($v: String!) { createDevice(input: { name: $v }) { token } }', 'name', 'merchantKey'],
    ['reportCheckoutPayment', 'mutation($v: String, $t: String!) { reportCheckoutPayment(token: $t, input: { payerTrackingNumber: $v }) { status } }', 'payerTrackingNumber', null],
  ] as const)('GraphQL %s answers invalid_request naming the field', async (_name, query, field, credential) => {
    const token = credential ? sandbox[credential] : undefined;
    const res = await gql(app.baseUrl, query, { v: NUL, id: payment.id, t: payment.token }, token);
    expect(res.status).toBe(200);
    expect(res.errors?.[0]?.extensions.code).toBe('invalid_request');
    expect(res.errors?.[0]?.extensions.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  });
});

describe('an SMS body is evidence: stored and processed whatever it holds', () => {
  it('stores a body with NUL and an unpaired surrogate escaped, keeps the exact original, and processes it', async () => {
    const body = `${mellatDeposit({ account: '1234', amount: 20_000 })}\u0000tail\ud800`;
    const res = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: live.deviceToken, body: { sender: 'BankMellat', body, receivedAt: new Date().toISOString() } });
    expect(res.status).toBe(202);
    expect(res.body.status).not.toBe('received');
    const row = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.body).toContain('\u2400tail\ufffd');
    expect(JSON.parse(row.bodyRaw!)).toBe(body);
  });

  it('keeps body_raw null for an ordinary body', async () => {
    const res = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: live.deviceToken, body: { sender: 'BankMellat', body: 'سلام', receivedAt: new Date().toISOString() } });
    expect(res.status).toBe(202);
    expect((await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: res.body.id } })).bodyRaw).toBeNull();
  });

  it.each(['0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'])('refuses receivedAt %s as 400 naming receivedAt', async (receivedAt) => {
    const res = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: live.deviceToken, body: { sender: 'BankMellat', body: 'x', receivedAt } });
    expectRefused(res, 'receivedAt');
  });

  it.each([
    ['beyond BIGINT', `حساب1234\nواریز9223372036854775808\nمانده1,000\n03/09/03-10:00`],
    ['beyond BIGINT, bare', 'واریز9223372036854775808'],
    ['23 digits', `حساب1234\nواریز${'9'.repeat(23)}\nمانده1,000\n03/09/03-10:00`],
    ['beyond any real transfer', mellatDeposit({ account: '1234', amount: 10n ** 14n })],
  ])('marks an SMS with an amount %s unparsed, with the reason', async (_name, body) => {
    const res = await request(app.baseUrl, 'POST', '/v1/device/messages', { token: live.deviceToken, body: { sender: 'BankMellat', body, receivedAt: new Date().toISOString() } });
    expect(res.status).toBe(202);
    const row = await app.deps.prisma.bankMessage.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(res.body.status).toBe('unparsed');
    expect(row.status).toBe('unparsed');
    expect(row.statusReason).toMatch(/not a plausible transfer/);
    expect(row.amount).toBeNull();
  });
});

describe('metadata key __proto__', () => {
  it('is refused with 400 naming the field, over REST and GraphQL, never silently dropped', async () => {
    const raw = `{"amount":20000,"callbackUrl":"https://shop.example.com/r","metadata":{"a":1,"__proto__":{"x":1}}}`;
    const res = await request(app.baseUrl, 'POST', '/v1/payments', { token: sandbox.apiKey, rawBody: raw, headers: { 'content-type': 'application/json' } });
    expectRefused(res, 'metadata.__proto__');
    const g = await request(app.baseUrl, 'POST', '/graphql', {
      token: sandbox.apiKey,
      rawBody: `{"query":"mutation($i: CreatePaymentInput!) { createPayment(input: $i) { id } }","variables":{"i":{"amount":20000,"callbackUrl":"https://shop.example.com/r","metadata":{"__proto__":{"x":1}}}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(g.body.errors[0].extensions.code).toBe('invalid_request');
    expect(g.body.errors[0].extensions.details.fields[0].field).toBe('metadata.__proto__');
  });

  it('lets the keys constructor and prototype round-trip', async () => {
    const res = await createPaymentRest(app, sandbox.apiKey, { amount: 20_000, metadata: { constructor: 'c', prototype: 'p' } });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({ constructor: 'c', prototype: 'p' });
  });
});
