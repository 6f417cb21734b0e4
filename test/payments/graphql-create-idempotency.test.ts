import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK, gql, makeShop, startTestApp, type TestApp } from '../support/harness.js';

// GraphQL `createPayment(input, idempotencyKey)`: the create's key mechanism (the same as REST's
// Idempotency-Key): a retried create makes one payment, concurrent retries included; the same key
// with another input is idempotency_conflict; without a key every call creates.
let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;
beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app);
});
afterAll(() => app.stop());

const CREATE = 'mutation($input: CreatePaymentInput!, $key: String) { createPayment(input: $input, idempotencyKey: $key) { id amountRequested orderId status } }';
const count = (orderId: string) => app.deps.prisma.payment.count({ where: { projectId: shop.projectId, orderId } });

describe('GraphQL createPayment with an idempotency key', () => {
  it('20 concurrent calls with one key make one payment; each answer is it or idempotency_conflict while the first runs', async () => {
    const input = { amount: '731000', callbackUrl: CALLBACK, orderId: 'gql-idem-1' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => gql(app.baseUrl, CREATE, { input, key: 'order-gql-idem-1' }, shop.apiKey)));
    expect(await count('gql-idem-1')).toBe(1);
    const created = answers.filter((a) => !a.errors).map((a) => a.data.createPayment.id as string);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created).size).toBe(1);
    for (const a of answers.filter((x) => x.errors)) expect(a.errors![0]!.extensions.code).toBe('idempotency_conflict');
    // A retry after it finished answers the same payment.
    const again = await gql(app.baseUrl, CREATE, { input, key: 'order-gql-idem-1' }, shop.apiKey);
    expect(again.data.createPayment).toMatchObject({ id: created[0], amountRequested: '731000', orderId: 'gql-idem-1', status: 'pending' });
    expect(await count('gql-idem-1')).toBe(1);
  });

  it('the same key with another input is idempotency_conflict and creates nothing; no key creates each time', async () => {
    const first = await gql(app.baseUrl, CREATE, { input: { amount: '732000', callbackUrl: CALLBACK, orderId: 'gql-idem-2' }, key: 'k-2' }, shop.apiKey);
    expect(first.errors).toBeUndefined();
    const other = await gql(app.baseUrl, CREATE, { input: { amount: '733000', callbackUrl: CALLBACK, orderId: 'gql-idem-2' }, key: 'k-2' }, shop.apiKey);
    expect(other.errors![0]!.extensions.code).toBe('idempotency_conflict');
    expect(await count('gql-idem-2')).toBe(1);
    for (let i = 0; i < 2; i++) expect((await gql(app.baseUrl, CREATE, { input: { amount: '734000', callbackUrl: CALLBACK, orderId: 'gql-idem-3' } }, shop.apiKey)).errors).toBeUndefined();
    expect(await count('gql-idem-3')).toBe(2);
    const tooLong = await gql(app.baseUrl, CREATE, { input: { amount: '735000', callbackUrl: CALLBACK, orderId: 'gql-idem-4' }, key: 'x'.repeat(256) }, shop.apiKey);
    expect(tooLong.errors![0]!.extensions.code).toBe('invalid_request');
    expect(await count('gql-idem-4')).toBe(0);
  });
});
