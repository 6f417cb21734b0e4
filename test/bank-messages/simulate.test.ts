import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app);
});
afterAll(() => app.stop());

const simulate = (body: Record<string, unknown>, token = shop.apiKey) => request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token, body });
const newPayment = async (amount = 50_000) => (await createPaymentRest(app, shop.apiKey, { amount })).body;

describe('POST /v1/sandbox/deposits', () => {
  it('match confirms the payment through the engine (auto_sms), with the payer card', async () => {
    const p = await newPayment();
    const res = await simulate({ paymentId: p.id, payerCardLast4: '۱۲۳۴' });
    expect(res.status).toBe(200);
    expect(res.body.simulatedAmount).toBe(p.amountFinal);
    expect(res.body.bankMessage).toEqual({ id: expect.any(String), status: 'matched', statusReason: expect.any(String) });
    expect(res.body.payment).toMatchObject({ id: p.id, status: 'confirmed', confirmationSource: 'auto_sms', payerCardLast4: '1234', sandbox: true });
    const v = await request(app.baseUrl, 'POST', `/v1/payments/${p.id}/verify`, { token: shop.apiKey });
    expect(v.body).toMatchObject({ verified: true, payerCardLast4: '1234', confirmationSource: 'auto_sms' });
  });

  it('base_amount deposits the amount without code: needs_review, still pending', async () => {
    const p = await newPayment(51_000);
    const res = await simulate({ token: p.token, outcome: 'base_amount' });
    expect(res.body.simulatedAmount).toBe('51000');
    expect(res.body.bankMessage.status).toBe('needs_review');
    expect(res.body.payment).toMatchObject({ status: 'pending', reviewRequired: true, reviewReason: 'amount_without_code' });
  });

  it('wrong_amount deposits an amount nobody holds: unmatched, payment unchanged', async () => {
    const p = await newPayment(52_000);
    const res = await simulate({ paymentId: p.id, outcome: 'wrong_amount' });
    expect(res.body.bankMessage.status).toBe('unmatched');
    expect(res.body.simulatedAmount).not.toBe(p.amountFinal);
    expect(res.body.payment).toMatchObject({ status: 'pending', reviewRequired: false });
  });

  it('custom deposits the given amount and lets the engine decide', async () => {
    const p = await newPayment(53_000);
    expect((await simulate({ paymentId: p.id, outcome: 'custom' })).status).toBe(400);
    const other = await simulate({ paymentId: p.id, outcome: 'custom', amount: '10007' });
    expect(other.body.bankMessage.status).toBe('unmatched');
    const exact = await simulate({ paymentId: p.id, outcome: 'custom', amount: p.amountFinal });
    expect(exact.body.bankMessage.status).toBe('matched');
    const again = await simulate({ paymentId: p.id, outcome: 'match' });
    expect(again.body.bankMessage.status).toBe('unmatched');
    expect(again.body.payment.status).toBe('confirmed');
  });

  it('needs paymentId or token, naming the same payment when both are given', async () => {
    const p = await newPayment(54_000);
    const q = await newPayment(55_000);
    expect((await simulate({})).status).toBe(400);
    expect((await simulate({ paymentId: p.id, token: q.token })).status).toBe(400);
    expect((await simulate({ paymentId: p.id, token: p.token })).status).toBe(200);
    expect((await simulate({ token: 'short' })).status).toBe(400);
    expect((await simulate({ token: 'x'.repeat(65) })).status).toBe(400);
    expect((await simulate({ token: 'x'.repeat(43) })).status).toBe(404);
    expect((await simulate({ paymentId: q.id, payerCardLast4: '12345' })).status).toBe(400);
    expect((await simulate({ paymentId: q.id, outcome: 'lucky' })).status).toBe(400);
  });

  it('is refused on live projects with 403 sandbox_only, and never sees another project’s payment', async () => {
    const live = await makeShop(app, { sandbox: false, credit: 100_000 });
    const lp = (await createPaymentRest(app, live.apiKey, { amount: 20_000 })).body;
    const refused = await simulate({ paymentId: lp.id }, live.apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('sandbox_only');
    const other = await makeShop(app);
    const p = await newPayment(56_000);
    expect((await simulate({ paymentId: p.id }, other.apiKey)).status).toBe(404);
  });

  it('works through GraphQL simulateDeposit with the same result', async () => {
    const p = await newPayment(57_000);
    const data = await gqlOk(
      app.baseUrl,
      `mutation($input: SimulateDepositInput!) { simulateDeposit(input: $input) { simulatedAmount bankMessage { status simulated } payment { status confirmationSource } } }`,
      { input: { paymentId: p.id, outcome: 'match' } },
      shop.apiKey,
    );
    expect(data.simulateDeposit).toEqual({ simulatedAmount: p.amountFinal, bankMessage: { status: 'matched', simulated: true }, payment: { status: 'confirmed', confirmationSource: 'auto_sms' } });
    const bad = await gql(app.baseUrl, `mutation { simulateDeposit(input: { outcome: custom, paymentId: "${p.id}" }) { simulatedAmount } }`, {}, shop.apiKey);
    expect(bad.errors?.[0]?.extensions.code).toBe('invalid_request');
  });
});
