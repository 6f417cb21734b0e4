import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { clearOfWindowEdge } from '../support/rate-window.js';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app, { settings: { displayName: null, logoUrl: 'https://cdn.example.com/logo.png', color: '#112233', supportPhone: '02112345678' } });
});
afterAll(() => app.stop());

const view = (token: string) => request(app.baseUrl, 'GET', `/v1/checkout/${token}`);
const newPayment = async (body: Record<string, unknown> = {}) => (await createPaymentRest(app, shop.apiKey, { amount: 120_000, orderId: 'co-1', description: 'Two books', ...body })).body;

describe('checkout view', () => {
  it('shows the payer everything the checkout view lists (OpenAPI `CheckoutView`), with the card while pending', async () => {
    const p = await newPayment();
    const res = await view(p.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token: p.token, paymentId: p.id, status: 'pending', amountRequested: '120000', amountFinal: p.amountFinal, amountMode: 'unique_code',
      displayUnit: 'toman', autoConfirm: true, description: 'Two books', orderId: 'co-1', expiresAt: p.expiresAt,
      callbackUrl: 'https://shop.example.com/return', payerReportedPaidAt: null, confirmedAt: null, receiptCode: null, sandbox: true,
      card: { bankCode: 'mellat', bankName: 'بانک ملت', cardNumber: '6104337812345678', holderName: 'Shop' },
      project: { displayName: 'Shop', logoUrl: 'https://cdn.example.com/logo.png', color: '#112233', note: null, supportPhone: '02112345678' },
      link: null,
    });
    expect(res.body.remainingSeconds).toBeGreaterThan(890);
    expect(res.body.remainingSeconds).toBeLessThanOrEqual(900);
  });

  it('answers 404 for unknown tokens, and GraphQL checkout is null', async () => {
    expect((await view('x'.repeat(43))).status).toBe(404);
    expect((await view('bad token!')).status).toBe(404);
    expect((await gqlOk(app.baseUrl, `{ checkout(token: "${'y'.repeat(43)}") { status } }`)).checkout).toBeNull();
  });

  it('keeps the card and adds a receipt code once confirmed; hides the card once canceled', async () => {
    const p = await newPayment({ amount: 121_000 });
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } });
    const confirmed = (await view(p.token)).body;
    expect(confirmed).toMatchObject({ status: 'confirmed', remainingSeconds: 0 });
    expect(confirmed.card).not.toBeNull();
    expect(confirmed.receiptCode).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(confirmed.confirmedAt).not.toBeNull();

    const q = await newPayment({ amount: 122_000 });
    const canceled = await request(app.baseUrl, 'POST', `/v1/checkout/${q.token}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', card: null, remainingSeconds: 0 });
    const again = await request(app.baseUrl, 'POST', `/v1/checkout/${q.token}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'canceled' } });
    const events = await app.deps.prisma.event.findMany({ where: { paymentId: q.id } });
    expect(events.map((e) => e.type)).toEqual(['payment.canceled']);
  });

  it('records the payer’s report (Persian digits accepted) while pending only', async () => {
    const p = await newPayment({ amount: 123_000 });
    const bad = await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/report`, { body: { payerCardLast4: '12a4', payerTrackingNumber: 't'.repeat(41), payerPhone: '123' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['payerCardLast4', 'payerPhone', 'payerTrackingNumber']);
    const ok = await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/report`, { body: { payerCardLast4: '۱۲۳۴', payerTrackingNumber: '۹'.repeat(40), payerPhone: '09121234567' } });
    expect(ok.status).toBe(200);
    expect(ok.body.payerReportedPaidAt).not.toBeNull();
    const record = (await request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey })).body;
    expect(record).toMatchObject({ payerCardLast4: '1234', payerTrackingNumber: '9'.repeat(40), payerPhone: '09121234567' });
    await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/cancel`);
    expect((await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/report`, { body: {} })).status).toBe(409);
  });

  it('offers the same operations over GraphQL', async () => {
    const p = await newPayment({ amount: 124_000 });
    const viewed = await gqlOk(app.baseUrl, `query($t: String!) { checkout(token: $t) { status amountFinal displayUnit card { cardNumber } project { displayName } } }`, { t: p.token });
    expect(viewed.checkout).toEqual({ status: 'pending', amountFinal: p.amountFinal, displayUnit: 'toman', card: { cardNumber: '6104337812345678' }, project: { displayName: 'Shop' } });
    const reported = await gqlOk(app.baseUrl, `mutation($t: String!) { reportCheckoutPayment(token: $t, input: { payerCardLast4: "4321" }) { payerReportedPaidAt } }`, { t: p.token });
    expect(reported.reportCheckoutPayment.payerReportedPaidAt).not.toBeNull();
    const canceled = await gqlOk(app.baseUrl, `mutation($t: String!) { cancelCheckout(token: $t) { status card { cardNumber } } }`, { t: p.token });
    expect(canceled.cancelCheckout).toEqual({ status: 'canceled', card: null });
    const again = await gql(app.baseUrl, `mutation($t: String!) { cancelCheckout(token: $t) { status } }`, { t: p.token });
    expect(again.errors?.[0]?.extensions.code).toBe('invalid_state');
  });
});

describe('payment links', () => {
  async function link(input: Record<string, unknown>) {
    await gqlOk(app.baseUrl, `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { slug } }`, { input: { projectId: shop.projectId, title: 'Donate', ...input } }, shop.merchantKey);
  }

  it('shows a link and creates payments at a payer-chosen amount within min..max', async () => {
    await link({ slug: 'donate-any', minAmount: 20_000, maxAmount: 500_000, description: 'Thank you' });
    const shown = await request(app.baseUrl, 'GET', '/v1/links/donate-any');
    expect(shown.body).toEqual({ slug: 'donate-any', title: 'Donate', description: 'Thank you', amount: null, minAmount: '20000', maxAmount: '500000', project: { displayName: 'Shop', logoUrl: 'https://cdn.example.com/logo.png', color: '#112233' } });
    const missing = await request(app.baseUrl, 'POST', '/v1/links/donate-any/payments', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields[0].field).toBe('amount');
    for (const amount of [19_999, 500_001]) {
      const res = await request(app.baseUrl, 'POST', '/v1/links/donate-any/payments', { body: { amount } });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.error.details.fields[0].field).toBe('amount');
    }
    const made = await request(app.baseUrl, 'POST', '/v1/links/donate-any/payments', { body: { amount: 20_000, payerPhone: '09120000000', description: 'd'.repeat(200) } });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body)).toEqual(['token', 'checkoutUrl', 'amountFinal', 'expiresAt']);
    expect(made.body.checkoutUrl).toBe(`${app.deps.config.publicBaseUrl}/pay/${made.body.token}`);
    expect(Number(made.body.amountFinal)).toBeGreaterThan(20_000);
    const v = (await view(made.body.token)).body;
    expect(v).toMatchObject({ link: { slug: 'donate-any', title: 'Donate' }, callbackUrl: null });
    expect((await request(app.baseUrl, 'POST', '/v1/links/donate-any/payments', { body: { amount: 500_000 } })).status).toBe(201);
    expect((await request(app.baseUrl, 'POST', '/v1/links/donate-any/payments', { body: { amount: 30_000, description: 'd'.repeat(201) } })).status).toBe(400);
  });

  it('uses the fixed amount of a fixed link, whatever the payer sends', async () => {
    await link({ slug: 'fixed-tea', amount: 75_000 });
    const made = await request(app.baseUrl, 'POST', '/v1/links/fixed-tea/payments', { body: { amount: 10_000 } });
    expect(made.status).toBe(201);
    const v = (await view(made.body.token)).body;
    expect(v.amountRequested).toBe('75000');
    const viaGql = await gqlOk(app.baseUrl, `mutation { createLinkPayment(slug: "fixed-tea") { token amountFinal checkoutUrl expiresAt } }`);
    expect(viaGql.createLinkPayment.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await gqlOk(app.baseUrl, `{ paymentLink(slug: "fixed-tea") { amount title } }`)).paymentLink).toEqual({ amount: '75000', title: 'Donate' });
  });

  it('answers 404 for unknown links', async () => {
    expect((await request(app.baseUrl, 'GET', '/v1/links/no-such-link')).status).toBe(404);
    expect((await request(app.baseUrl, 'POST', '/v1/links/no-such-link/payments', { body: { amount: 20_000 } })).status).toBe(404);
    expect((await gqlOk(app.baseUrl, `{ paymentLink(slug: "no-such-link") { slug } }`)).paymentLink).toBeNull();
  });

  it('lets one payer IP start at most 10 payments a minute from one link', async () => {
    await link({ slug: 'limited', amount: 30_000 });
    // The limit counts in fixed one-minute windows: the eleven requests must fall in one.
    await clearOfWindowEdge(15_000);
    const results = [];
    for (let i = 0; i < 11; i++) {
      const res = await request(app.baseUrl, 'POST', '/v1/links/limited/payments', { body: {} });
      results.push(res);
      // Each payer gives up at once, so the pending cap (3 per address, link-drain.test.ts) never applies.
      if (res.status === 201) await request(app.baseUrl, 'POST', `/v1/checkout/${res.body.token}/cancel`);
    }
    expect(results.slice(0, 10).every((r) => r.status === 201)).toBe(true);
    const limited = results[10]!;
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
