import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

// The payment list's filters are defined once (src/domain/payments/list-filter.ts): REST's
// `GET /v1/payments` takes every filter of GraphQL's `payments`, by the same names, and both doors
// answer the same payments.

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

type Fixture = 'pending' | 'reported' | 'confirmed' | 'reportedConfirmed' | 'flagged' | 'otherCard';
/** One payment of each kind the filters tell apart, by name; its REST record. */
const made = {} as Record<Fixture, { id: string; amountFinal: string; token: string; createdAt: string }>;

const FIRST_CARD = '6104337833334444';
const SECOND_CARD = '6104337899998888';

const create = async (amount: number) => (await createPaymentRest(app, shop.apiKey, { amount, orderId: `order-${amount}` })).body;
const report = (token: string, payerCardLast4: string) => request(app.baseUrl, 'POST', `/v1/checkout/${token}/report`, { body: { payerCardLast4 } });
const simulate = (paymentId: string, outcome: string) => request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId, outcome } });

beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app, { card: { cardNumber: FIRST_CARD } });
  made.pending = await create(30_000);
  made.reported = await create(31_000);
  expect((await report(made.reported.token, '1111')).status).toBe(200);
  made.confirmed = await create(32_000);
  expect((await simulate(made.confirmed.id, 'match')).body.payment.status).toBe('confirmed');
  made.reportedConfirmed = await create(33_000);
  expect((await report(made.reportedConfirmed.token, '2222')).status).toBe(200);
  expect((await simulate(made.reportedConfirmed.id, 'match')).body.payment.status).toBe('confirmed');
  made.flagged = await create(34_000);
  expect((await simulate(made.flagged.id, 'base_amount')).body.payment).toMatchObject({ status: 'pending', reviewRequired: true });
  // New payments go to a second card once the first stops taking them.
  await gqlOk(app.baseUrl, `mutation($id: ID!) { updateCard(id: $id, input: { active: false }) { id } }`, { id: shop.cardId }, shop.merchantKey);
  await gqlOk(app.baseUrl, `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`, {
    input: { projectId: shop.projectId, bankCode: 'mellat', cardNumber: SECOND_CARD, holderName: 'Shop' },
  }, shop.merchantKey);
  made.otherCard = await create(35_000);
});
afterAll(() => app.stop());

/** A filter as REST and GraphQL both take it (GraphQL's typed values; REST reads them from text). */
type Filter = Partial<{ status: string; orderId: string; from: string; to: string; reviewRequired: boolean; reported: boolean; amount: string; cardLast4: string }>;

async function restIds(filter: Filter): Promise<string[]> {
  const query = new URLSearchParams({ ...Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, String(v)])), pageSize: '100' });
  const res = await request(app.baseUrl, 'GET', `/v1/payments?${query}`, { token: shop.apiKey });
  expect(res.status).toBe(200);
  expect(res.body.total).toBe(res.body.items.length);
  return res.body.items.map((p: { id: string }) => p.id);
}

const LIST = `query($status: PaymentStatus, $orderId: String, $from: DateTime, $to: DateTime, $reviewRequired: Boolean, $reported: Boolean, $amount: Amount, $cardLast4: String) {
  payments(first: 100, status: $status, orderId: $orderId, from: $from, to: $to, reviewRequired: $reviewRequired, reported: $reported, amount: $amount, cardLast4: $cardLast4) {
    totalCount edges { node { id } }
  } }`;

async function graphqlIds(filter: Filter): Promise<string[]> {
  const { payments } = await gqlOk(app.baseUrl, LIST, filter, shop.apiKey);
  expect(payments.totalCount).toBe(payments.edges.length);
  return payments.edges.map((e: { node: { id: string } }) => e.node.id);
}

/** The fixtures' ids, newest first as both lists order them. */
const newestFirst = (...names: Fixture[]) => names.map((n) => made[n]).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)).map((p) => p.id);
const ALL: Fixture[] = ['pending', 'reported', 'confirmed', 'reportedConfirmed', 'flagged', 'otherCard'];
const allBut = (...left: Fixture[]) => ALL.filter((n) => !left.includes(n));

describe('GET /v1/payments takes every filter GraphQL has', () => {
  it('reviewRequired: true lists the flagged payment only, false every other', async () => {
    expect(await restIds({ reviewRequired: true })).toEqual(newestFirst('flagged'));
    expect(await restIds({ reviewRequired: false })).toEqual(newestFirst(...allBut('flagged')));
  });

  it('reported: true lists the reported payment still unconfirmed, false those with no report', async () => {
    expect(await restIds({ reported: true })).toEqual(newestFirst('reported'));
    expect(await restIds({ reported: false })).toEqual(newestFirst(...allBut('reported', 'reportedConfirmed')));
  });

  it('amount matches the requested or the final amount, in rials', async () => {
    expect(await restIds({ amount: '31000' })).toEqual(newestFirst('reported'));
    expect(await restIds({ amount: made.confirmed.amountFinal })).toEqual(newestFirst('confirmed'));
    expect(await restIds({ amount: '۳۲۰۰۰' })).toEqual(newestFirst('confirmed'));
    expect(await restIds({ amount: '36000' })).toEqual([]);
  });

  it('cardLast4 matches the card paid to or the payer’s reported card', async () => {
    expect(await restIds({ cardLast4: FIRST_CARD.slice(-4) })).toEqual(newestFirst(...allBut('otherCard')));
    expect(await restIds({ cardLast4: SECOND_CARD.slice(-4) })).toEqual(newestFirst('otherCard'));
    expect(await restIds({ cardLast4: '1111' })).toEqual(newestFirst('reported'));
    expect(await restIds({ cardLast4: '9999' })).toEqual([]);
  });

  it('keeps its pages and record shape with the new filters', async () => {
    const res = await request(app.baseUrl, 'GET', `/v1/payments?cardLast4=${FIRST_CARD.slice(-4)}&pageSize=2&page=2`, { token: shop.apiKey });
    expect(res.body).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(Object.keys(res.body)).toEqual(['items', 'page', 'pageSize', 'total']);
    expect(res.body.items.map((p: { id: string }) => p.id)).toEqual(newestFirst(...allBut('otherCard')).slice(2, 4));
    expect(res.body.items[0]).toEqual((await request(app.baseUrl, 'GET', `/v1/payments/${res.body.items[0].id}`, { token: shop.apiKey })).body);
  });
});

describe('both doors answer the same payments for the same filter', () => {
  const cases: [string, () => Filter, () => Fixture[]][] = [
    ['no filter', () => ({}), () => ALL],
    ['status', () => ({ status: 'confirmed' }), () => ['confirmed', 'reportedConfirmed']],
    ['orderId', () => ({ orderId: 'order-31000' }), () => ['reported']],
    ['from and to, inclusive', () => ({ from: made.reported.createdAt, to: made.reportedConfirmed.createdAt }), () => ['reported', 'confirmed', 'reportedConfirmed']],
    ['reviewRequired true', () => ({ reviewRequired: true }), () => ['flagged']],
    ['reviewRequired false', () => ({ reviewRequired: false }), () => allBut('flagged')],
    ['reported true', () => ({ reported: true }), () => ['reported']],
    ['reported false', () => ({ reported: false }), () => allBut('reported', 'reportedConfirmed')],
    ['amount requested', () => ({ amount: '33000' }), () => ['reportedConfirmed']],
    ['amount final', () => ({ amount: made.pending.amountFinal }), () => ['pending']],
    ['cardLast4 of the card', () => ({ cardLast4: SECOND_CARD.slice(-4) }), () => ['otherCard']],
    ['cardLast4 of the payer', () => ({ cardLast4: '2222' }), () => ['reportedConfirmed']],
    ['filters combined', () => ({ status: 'pending', reported: false, cardLast4: FIRST_CARD.slice(-4) }), () => ['pending', 'flagged']],
    ['nothing matches', () => ({ status: 'canceled' }), () => []],
  ];

  it.each(cases)('%s', async (_name, filter, expected) => {
    const viaRest = await restIds(filter());
    expect(viaRest).toEqual(newestFirst(...expected()));
    expect(await graphqlIds(filter())).toEqual(viaRest);
  });
});

describe('a value a filter does not take', () => {
  it.each([
    ['reviewRequired', 'yes'],
    ['reported', '1'],
    ['amount', '12x'],
    ['amount', '5'],
    ['cardLast4', '123'],
    ['cardLast4', '12a4'],
  ])('?%s=%s is 400 invalid_request naming the field', async (field, value) => {
    const res = await request(app.baseUrl, 'GET', `/v1/payments?${field}=${encodeURIComponent(value)}`, { token: shop.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual([field]);
  });

  it.each([
    ['amount', '5'],
    ['cardLast4', '123'],
  ])('%s=%s is the same error through GraphQL', async (field, value) => {
    const viaRest = await request(app.baseUrl, 'GET', `/v1/payments?${field}=${value}`, { token: shop.apiKey });
    const viaGraphql = await gql(app.baseUrl, LIST, { [field]: value }, shop.apiKey);
    expect(viaGraphql.errors?.[0]?.extensions).toEqual({ code: viaRest.body.error.code, details: viaRest.body.error.details });
  });
});
