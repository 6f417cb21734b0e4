import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK, createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

// docs/integration.md "1. Create a payment", units: `currency` on every create (REST, GraphQL,
// payment links), amounts stored and returned in rials, the caller's unit kept on the record;
// unknown fields refused by name.
let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app);
});
afterAll(() => app.stop());

const CREATE = `mutation($input: CreatePaymentInput!) { createPayment(input: $input) { id amountRequested amountFinal currency } }`;
const fieldsOf = (body: { error: { details: { fields: { field: string }[] } } }) => body.error.details.fields.map((f) => f.field);

async function linkOf(slug: string, input: Record<string, unknown>) {
  await gqlOk(
    app.baseUrl,
    `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { slug } }`,
    { input: { projectId: shop.projectId, slug, title: 'Donate', ...input } },
    shop.merchantKey,
  );
}

describe('create with currency (REST)', () => {
  it('stores a toman amount as rials and returns the record with currency IRT', async () => {
    // Given a shop that prices in toman
    // When it creates a payment of 1,500 toman
    const res = await createPaymentRest(app, shop.apiKey, { amount: 1_500, currency: 'IRT' });
    // Then the payment asks for 15,000 rials and says it was sent in toman
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amountRequested: '15000', currency: 'IRT' });
    expect(BigInt(res.body.amountFinal)).toBe(15_000n + BigInt(res.body.code));
    const keys = Object.keys(res.body);
    expect(keys.indexOf('currency')).toBe(keys.indexOf('amountMode') + 1);
    const read = await request(app.baseUrl, 'GET', `/v1/payments/${res.body.id}`, { token: shop.apiKey });
    expect(read.body).toMatchObject({ amountRequested: '15000', currency: 'IRT' });
  });

  it('defaults to IRR, and takes IRR said out loud the same way', async () => {
    const implicit = await createPaymentRest(app, shop.apiKey, { amount: 15_000 });
    const explicit = await createPaymentRest(app, shop.apiKey, { amount: '15000', currency: 'IRR' });
    expect(implicit.body).toMatchObject({ amountRequested: '15000', currency: 'IRR' });
    expect(explicit.body).toMatchObject({ amountRequested: '15000', currency: 'IRR' });
  });

  it('applies the range rule after conversion: 1,000..100,000,000 toman', async () => {
    expect((await createPaymentRest(app, shop.apiKey, { amount: 1_000, currency: 'IRT' })).body.amountRequested).toBe('10000');
    expect((await createPaymentRest(app, shop.apiKey, { amount: '۱۰۰۰۰۰۰۰۰', currency: 'IRT' })).body.amountRequested).toBe('1000000000');
    for (const amount of [999, 100_000_001]) {
      const res = await createPaymentRest(app, shop.apiKey, { amount, currency: 'IRT' });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['amount']);
      expect(res.body.error.details.fields[0].message).toContain('toman');
    }
    // 1,000 rials is below the range even though 1,000 toman is not.
    expect((await createPaymentRest(app, shop.apiKey, { amount: 1_000 })).status).toBe(400);
  });

  it.each(['USD', 'irt', 'toman', '', 10])('refuses currency %j with 400 naming currency', async (currency) => {
    const res = await createPaymentRest(app, shop.apiKey, { amount: 50_000, currency });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(fieldsOf(res.body)).toEqual(['currency']);
  });

  it('refuses a field the interface does not define, by name, and creates nothing', async () => {
    const own = await makeShop(app);
    const res = await createPaymentRest(app, own.apiKey, { amount: 50_000, foo: 'bar' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.fields).toEqual([{ field: 'foo', message: expect.stringContaining('not a field') }]);
    // A misspelt currency is the silent-tenth mistake the rule is for.
    const misspelt = await createPaymentRest(app, own.apiKey, { amount: 50_000, curency: 'IRT' });
    expect(fieldsOf(misspelt.body)).toEqual(['curency']);
    expect(await app.deps.prisma.payment.count({ where: { projectId: own.projectId } })).toBe(0);
  });

  it('names an unknown field together with every other bad field', async () => {
    const res = await createPaymentRest(app, shop.apiKey, { amount: 5, currency: 'USD', callbackUrl: 'http://x', foo: 1 });
    expect(fieldsOf(res.body).sort()).toEqual(['callbackUrl', 'currency', 'foo']);
    const range = await createPaymentRest(app, shop.apiKey, { amount: 5, callbackUrl: 'http://x', foo: 1 });
    expect(fieldsOf(range.body).sort()).toEqual(['amount', 'callbackUrl', 'foo']);
  });
});

describe('create with currency (GraphQL)', () => {
  it('stores a toman amount as rials and exposes Payment.currency', async () => {
    const data = await gqlOk(app.baseUrl, CREATE, { input: { amount: 2_500, currency: 'IRT', callbackUrl: CALLBACK } }, shop.apiKey);
    expect(data.createPayment).toMatchObject({ amountRequested: '25000', currency: 'IRT' });
    const read = await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { currency amountRequested } }`, { id: data.createPayment.id }, shop.apiKey);
    expect(read.payment).toEqual({ currency: 'IRT', amountRequested: '25000' });
    const plain = await gqlOk(app.baseUrl, CREATE, { input: { amount: 25_000, callbackUrl: CALLBACK } }, shop.apiKey);
    expect(plain.createPayment).toMatchObject({ amountRequested: '25000', currency: 'IRR' });
  });

  it('refuses currency USD as invalid_request naming currency', async () => {
    const res = await gql(app.baseUrl, CREATE, { input: { amount: 25_000, currency: 'USD', callbackUrl: CALLBACK } }, shop.apiKey);
    expect(res.errors?.[0]?.extensions.code).toBe('invalid_request');
    expect(res.errors?.[0]?.message).toContain('currency');
  });

  it('refuses an amount outside the range once converted', async () => {
    const res = await gql(app.baseUrl, CREATE, { input: { amount: 999, currency: 'IRT', callbackUrl: CALLBACK } }, shop.apiKey);
    expect(res.errors?.[0]?.extensions.code).toBe('invalid_request');
    expect(res.errors?.[0]?.extensions.details.fields.map((f: { field: string }) => f.field)).toEqual(['amount']);
  });
});

describe('link payments with currency', () => {
  it('takes the payer’s amount in toman, checks the link’s min..max in rials, and keeps the currency', async () => {
    // Given a link for 20,000..500,000 rials
    await linkOf('currency-any', { minAmount: 20_000, maxAmount: 500_000 });
    // When the payer pays 12,000 toman through REST and 3,000 toman through GraphQL
    const rest = await request(app.baseUrl, 'POST', '/v1/links/currency-any/payments', { body: { amount: 12_000, currency: 'IRT' } });
    expect(rest.status).toBe(201);
    const viaGql = await gqlOk(
      app.baseUrl,
      `mutation($slug: String!, $input: CreateLinkPaymentInput) { createLinkPayment(slug: $slug, input: $input) { token amountFinal } }`,
      { slug: 'currency-any', input: { amount: 3_000, currency: 'IRT' } },
    );
    // Then both are stored in rials with currency IRT
    for (const token of [rest.body.token, viaGql.createLinkPayment.token]) {
      const p = await app.deps.prisma.payment.findUniqueOrThrow({ where: { token } });
      expect(p.currency).toBe('IRT');
      expect([120_000n, 30_000n]).toContain(p.amountRequested);
    }
    // And an amount within the range only as rials is refused as toman
    const over = await request(app.baseUrl, 'POST', '/v1/links/currency-any/payments', { body: { amount: 60_000, currency: 'IRT' } });
    expect(over.status).toBe(400);
    expect(fieldsOf(over.body)).toEqual(['amount']);
    expect(over.body.error.details.fields[0].message).toContain('toman');
  });

  it('refuses an unknown field and an unknown currency by name', async () => {
    await linkOf('currency-fixed', { amount: 50_000 });
    const foo = await request(app.baseUrl, 'POST', '/v1/links/currency-fixed/payments', { body: { foo: 1 } });
    expect(foo.status).toBe(400);
    expect(fieldsOf(foo.body)).toEqual(['foo']);
    const usd = await request(app.baseUrl, 'POST', '/v1/links/currency-fixed/payments', { body: { currency: 'USD' } });
    expect(usd.status).toBe(400);
    expect(fieldsOf(usd.body)).toEqual(['currency']);
    const gqlUsd = await gql(
      app.baseUrl,
      `mutation($input: CreateLinkPaymentInput) { createLinkPayment(slug: "currency-fixed", input: $input) { token } }`,
      { input: { currency: 'USD' } },
    );
    expect(gqlUsd.errors?.[0]?.extensions.code).toBe('invalid_request');
  });
});

describe('verify with amount', () => {
  const verify = (id: string, body?: unknown, rawBody?: string) =>
    request(app.baseUrl, 'POST', `/v1/payments/${id}/verify`, { token: shop.apiKey, body, rawBody, headers: rawBody === undefined ? {} : { 'content-type': 'application/json' } });
  const verifyCount = async (id: string) => (await request(app.baseUrl, 'GET', `/v1/payments/${id}`, { token: shop.apiKey })).body.verifyCount as number;

  it('counts a verify whose amount is the payment’s, in rials or in toman', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 70_000 })).body;
    expect((await verify(p.id, { amount: 70_000 })).status).toBe(200);
    expect((await verify(p.id, { amount: '7000', currency: 'IRT' })).status).toBe(200);
    expect((await verify(p.id, { amount: '۷۰۰۰۰', currency: 'IRR' })).body).toMatchObject({ id: p.id, verified: false });
    expect(await verifyCount(p.id)).toBe(3);
  });

  it('answers 409 amount_mismatch with both amounts in rials, and counts nothing', async () => {
    // Given a payment of 70,000 rials
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 70_000, currency: 'IRR' })).body;
    // When the shop verifies it expecting 70,000 toman (it mixed the units)
    const res = await verify(p.id, { amount: 70_000, currency: 'IRT' });
    // Then it is told the amounts differ, and verifyCount is unchanged
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('amount_mismatch');
    expect(res.body.error.details).toEqual({ amountRequested: '70000', given: '700000' });
    expect(res.body.details).toEqual(res.body.error.details);
    expect((await verify(p.id, { amount: 5 })).body.error.details).toEqual({ amountRequested: '70000', given: '5' });
    expect(await verifyCount(p.id)).toBe(0);
  });

  it('compares with amountRequested, not amountFinal', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 71_000 })).body;
    expect((await verify(p.id, { amount: p.amountFinal })).status).toBe(409);
    expect(await verifyCount(p.id)).toBe(0);
  });

  it('without a body, with an empty one or with no amount, behaves as before', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 72_000 })).body;
    expect((await verify(p.id)).status).toBe(200);
    expect((await verify(p.id, undefined, '')).status).toBe(200);
    expect((await verify(p.id, {})).status).toBe(200);
    expect((await verify(p.id, { currency: 'IRT' })).status).toBe(200);
    expect(await verifyCount(p.id)).toBe(4);
  });

  it('refuses a bad amount, a bad currency or an unknown field with 400, counting nothing', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 73_000 })).body;
    for (const [body, field] of [[{ amount: 'abc' }, 'amount'], [{ amount: 73_000, currency: 'USD' }, 'currency'], [{ amout: 73_000 }, 'amout']] as const) {
      const res = await verify(p.id, body);
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual([field]);
    }
    expect(await verifyCount(p.id)).toBe(0);
  });

  it('GraphQL verifyPayment(id, amount, currency) checks the same way', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 7_400, currency: 'IRT' })).body;
    const VERIFY = `mutation($id: ID!, $amount: Amount, $currency: Currency) { verifyPayment(id: $id, amount: $amount, currency: $currency) { id verified } }`;
    const ok = await gqlOk(app.baseUrl, VERIFY, { id: p.id, amount: 7_400, currency: 'IRT' }, shop.apiKey);
    expect(ok.verifyPayment.id).toBe(p.id);
    const wrong = await gql(app.baseUrl, VERIFY, { id: p.id, amount: 7_400 }, shop.apiKey);
    expect(wrong.errors?.[0]?.extensions).toMatchObject({ code: 'amount_mismatch', details: { amountRequested: '74000', given: '7400' } });
    await gqlOk(app.baseUrl, VERIFY, { id: p.id }, shop.apiKey);
    expect(await verifyCount(p.id)).toBe(2);
  });
});

describe('idempotency compares the parsed body', () => {
  it('replays the first answer for the same JSON in another key order and spacing', async () => {
    const own = await makeShop(app);
    const headers = { 'idempotency-key': 'order-77', 'content-type': 'application/json' };
    const first = await request(app.baseUrl, 'POST', '/v1/payments', {
      token: own.apiKey,
      headers,
      rawBody: `{"amount": 5000, "currency": "IRT", "callbackUrl": "${CALLBACK}", "metadata": {"a": 1, "b": "x"}}`,
    });
    expect(first.status).toBe(201);
    const again = await request(app.baseUrl, 'POST', '/v1/payments', {
      token: own.apiKey,
      headers,
      rawBody: `{\n  "metadata":{"b":"x","a":1},"callbackUrl":"${CALLBACK}",\n  "currency":"IRT","amount":5000}`,
    });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(await app.deps.prisma.payment.count({ where: { projectId: own.projectId } })).toBe(1);
  });

  it('refuses the same key with another body, even one meaning the same in other units', async () => {
    const own = await makeShop(app);
    const headers = { 'idempotency-key': 'order-78' };
    expect((await createPaymentRest(app, own.apiKey, { amount: 5_000, currency: 'IRT' }, headers)).status).toBe(201);
    const other = await createPaymentRest(app, own.apiKey, { amount: 50_000 }, headers);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    const reordered = await createPaymentRest(app, own.apiKey, { metadata: null, amount: 5_000, currency: 'IRT' }, headers);
    expect(reordered.status).toBe(409);
  });
});

describe('checkout in the shop’s unit', () => {
  it('carries the currency in the checkout view, REST and GraphQL alike', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 3_000, currency: 'IRT' })).body;
    const rest = await request(app.baseUrl, 'GET', `/v1/checkout/${p.token}`);
    expect(rest.body).toMatchObject({ currency: 'IRT', amountRequested: '30000', displayUnit: 'toman' });
    const viaGql = await gqlOk(app.baseUrl, `query($t: String!) { checkout(token: $t) { currency amountRequested } }`, { t: p.token });
    expect(viaGql.checkout).toEqual({ currency: 'IRT', amountRequested: '30000' });
  });

  it('paints toman first for IRT and rials first for IRR, both shown', async () => {
    const toman = (await createPaymentRest(app, shop.apiKey, { amount: 3_100, currency: 'IRT' })).body;
    const rial = (await createPaymentRest(app, shop.apiKey, { amount: 31_000 })).body;
    const page = async (token: string) => (await request(app.baseUrl, 'GET', `/pay/${token}`)).text;
    const tomanFirst = await page(toman.token);
    expect(tomanFirst.indexOf('class="amount-main amount-toman"')).toBeGreaterThan(0);
    expect(tomanFirst.indexOf('class="amount-main amount-toman"')).toBeLessThan(tomanFirst.indexOf('class="amount-also amount-rial"'));
    expect(tomanFirst).toContain('id="amount-rial"');
    const rialFirst = await page(rial.token);
    expect(rialFirst.indexOf('class="amount-main amount-rial"')).toBeGreaterThan(0);
    expect(rialFirst.indexOf('class="amount-main amount-rial"')).toBeLessThan(rialFirst.indexOf('class="amount-also amount-toman"'));
    expect(rialFirst).toContain('id="amount-toman"');
  });
});
