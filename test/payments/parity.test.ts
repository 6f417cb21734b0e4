import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app);
});
afterAll(() => app.stop());

const FIELDS = `id status amountRequested amountFinal code amountMode currency orderId description token reviewRequired reviewReason
  confirmationSource confirmedAt verifiedAt verifyCount expiresAt payerPhone payerCardLast4 payerTrackingNumber
  payerReportedPaidAt bankMessageId amountReceived confirmedLate manualNote refundedAmount metadata sandbox createdAt updatedAt`;

describe('REST and GraphQL parity', () => {
  it('the same scenario gives the same records and errors through both doors', async () => {
    const input = { amount: '45000', orderId: 'parity', description: 'same', payerPhone: '09120000000', metadata: { b: 2, a: 'x' } };

    const viaRest = (await createPaymentRest(app, shop.apiKey, input)).body;
    const viaGql = (await gqlOk(app.baseUrl, `mutation($input: CreatePaymentInput!) { createPayment(input: $input) { ${FIELDS} checkoutUrl } }`, { input: { ...input, callbackUrl: 'https://shop.example.com/return' } }, shop.apiKey)).createPayment;
    const { id: _a, token: _b, code: _c, amountFinal: _d, expiresAt: _e, createdAt: _f, updatedAt: _g, checkoutUrl: _h, ...restStable } = viaRest;
    const { id: _i, token: _j, code: _k, amountFinal: _l, expiresAt: _m, createdAt: _n, updatedAt: _o, checkoutUrl: _p, ...gqlStable } = viaGql;
    expect(gqlStable).toEqual(restStable);
    expect(Object.keys(viaGql).sort()).toEqual(Object.keys(viaRest).sort());

    const restRead = (await request(app.baseUrl, 'GET', `/v1/payments/${viaGql.id}`, { token: shop.apiKey })).body;
    const gqlRead = (await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { ${FIELDS} } }`, { id: viaGql.id }, shop.apiKey)).payment;
    expect(gqlRead).toEqual(restRead);

    const restVerify = (await request(app.baseUrl, 'POST', `/v1/payments/${viaRest.id}/verify`, { token: shop.apiKey })).body;
    const gqlVerify = (await gqlOk(app.baseUrl, `mutation($id: ID!) { verifyPayment(id: $id) { id status verified alreadyVerified orderId amountRequested amountFinal confirmedAt confirmationSource payerCardLast4 sandbox } }`, { id: viaGql.id }, shop.apiKey)).verifyPayment;
    expect({ ...gqlVerify, id: 'x', amountFinal: 'x' }).toEqual({ ...restVerify, id: 'x', amountFinal: 'x' });

    const restReject = (await request(app.baseUrl, 'POST', `/v1/payments/${viaRest.id}/reject`, { token: shop.apiKey, body: { reason: 'dup' } })).body;
    const gqlReject = (await gqlOk(app.baseUrl, `mutation($id: ID!) { rejectPayment(id: $id, reason: "dup") { status } }`, { id: viaGql.id }, shop.apiKey)).rejectPayment;
    expect(gqlReject.status).toBe(restReject.status);

    const restAgain = await request(app.baseUrl, 'POST', `/v1/payments/${viaRest.id}/reject`, { token: shop.apiKey, body: { reason: 'dup' } });
    const gqlAgain = await gql(app.baseUrl, `mutation($id: ID!) { rejectPayment(id: $id, reason: "dup") { status } }`, { id: viaGql.id }, shop.apiKey);
    expect(gqlAgain.errors?.[0]?.extensions).toEqual({ code: restAgain.body.error.code, details: restAgain.body.error.details });

    const restBad = await createPaymentRest(app, shop.apiKey, { amount: 5 });
    const gqlBad = await gql(app.baseUrl, `mutation { createPayment(input: { amount: 5, callbackUrl: "https://shop.example.com/return" }) { id } }`, {}, shop.apiKey);
    expect(gqlBad.errors?.[0]?.extensions).toEqual({ code: restBad.body.error.code, details: restBad.body.error.details });
  });

  it('lists through a Relay connection with the same order and filters as REST', async () => {
    const own = await makeShop(app);
    for (let i = 0; i < 3; i++) await createPaymentRest(app, own.apiKey, { amount: 20_000 + i * 10, orderId: 'conn' });
    const rest = (await request(app.baseUrl, 'GET', '/v1/payments?orderId=conn', { token: own.apiKey })).body.items.map((p: { id: string }) => p.id);
    const first = await gqlOk(app.baseUrl, `{ payments(orderId: "conn", first: 2) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }`, {}, own.apiKey);
    expect(first.payments.totalCount).toBe(3);
    const next = await gqlOk(app.baseUrl, `query($after: String) { payments(orderId: "conn", first: 2, after: $after) { edges { node { id } } pageInfo { hasNextPage } } }`, { after: first.payments.pageInfo.endCursor }, own.apiKey);
    const ids = [...first.payments.edges, ...next.payments.edges].map((e: { node: { id: string } }) => e.node.id);
    expect(ids).toEqual(rest);
    expect(next.payments.pageInfo.hasNextPage).toBe(false);
    const pending = await gqlOk(app.baseUrl, `{ payments(status: pending, first: 10) { totalCount } }`, {}, own.apiKey);
    expect(pending.payments.totalCount).toBe(3);
  });
});
