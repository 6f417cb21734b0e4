import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gqlOk, makeShop, startTestApp, type TestApp } from '../support/harness.js';

const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on Payment { status amountFinal } ... on Card { cardNumber } } }`;

describe('node(id) refetches by the REST UUID', () => {
  let app: TestApp;
  let shop: Awaited<ReturnType<typeof makeShop>>;
  let paymentId: string;

  beforeAll(async () => {
    app = await startTestApp();
    shop = await makeShop(app);
    paymentId = (await createPaymentRest(app, shop.apiKey, { amount: 150000 })).body.id;
  });
  afterAll(() => app?.stop());

  it('returns the payment to its project key, typed and with the same UUID', async () => {
    const data = await gqlOk(app.baseUrl, NODE, { id: paymentId }, shop.apiKey);
    expect(data.node).toMatchObject({ __typename: 'Payment', id: paymentId, status: 'pending' });
  });

  it('returns the card to its merchant key', async () => {
    const data = await gqlOk(app.baseUrl, NODE, { id: shop.cardId }, shop.merchantKey);
    expect(data.node).toEqual({ __typename: 'Card', id: shop.cardId, cardNumber: '6104337812345678' });
  });

  it('is null for another merchant’s ids, unknown ids and ids that are not UUIDs', async () => {
    const other = await makeShop(app);
    expect((await gqlOk(app.baseUrl, NODE, { id: paymentId }, other.apiKey)).node).toBeNull();
    expect((await gqlOk(app.baseUrl, NODE, { id: shop.cardId }, other.merchantKey)).node).toBeNull();
    expect((await gqlOk(app.baseUrl, NODE, { id: '00000000-0000-4000-8000-000000000000' }, shop.apiKey)).node).toBeNull();
    expect((await gqlOk(app.baseUrl, NODE, { id: 'not-a-uuid' }, shop.apiKey)).node).toBeNull();
  });
});
