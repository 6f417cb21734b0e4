import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementLog } from '../../src/db/pool.js';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { clearOfWindowEdge } from '../support/rate-window.js';

// Round trips per request on the hot paths, counted at the pool (every statement Prisma or the
// typed SQL sends), so that a regression shows up without timing anything. The API runs without
// workers, whose jobs would share the pool; the rate limiter reserves requests from its shared
// count in growing grants, one statement per many requests, so its reservations are left out of a
// request's count and checked on their own.
let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  shop = await makeShop(app, { sandbox: false, credit: 10_000_000 });
});
afterAll(() => app.stop());

/** The statements one call sends, rate-limit reservations aside. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  statementLog.names = [];
  try {
    await run();
    return statementLog.names.filter((n) => n !== 'rate-limit-reserve');
  } finally {
    statementLog.names = null;
  }
}

/** A request with a credential the process has just seen: the auth cache answers. */
async function warm(): Promise<void> {
  await request(app.baseUrl, 'GET', '/v1/payments?pageSize=1', { token: shop.apiKey });
}

describe('round trips per request', () => {
  it('a create is one statement: the create_payment call (allocation, hold, fee, card stamp)', async () => {
    await warm();
    const sent = await statementsOf(async () => expect((await createPaymentRest(app, shop.apiKey, { amount: 150_000 })).status).toBe(201));
    expect(sent).toEqual(['create-payment']);
  });

  it('an idempotent create adds its key: BEGIN, lock, read, create, store, COMMIT', async () => {
    await warm();
    const sent = await statementsOf(async () =>
      expect((await createPaymentRest(app, shop.apiKey, { amount: 160_000 }, { 'idempotency-key': 'rt-1' })).status).toBe(201),
    );
    expect(sent).toEqual(['BEGIN', 'idempotency-lock', 'idempotency-read', 'create-payment', 'idempotency-store', 'COMMIT']);
  });

  it('GraphQL createPayment is the same one statement, no read-back', async () => {
    await warm();
    const sent = await statementsOf(() =>
      gqlOk(app.baseUrl, 'mutation($i: CreatePaymentInput!) { createPayment(input: $i) { id amountFinal status checkoutUrl metadata expiresAt } }', { i: { amount: 170_000, callbackUrl: 'https://shop.example.com/r' } }, shop.apiKey),
    );
    expect(sent).toEqual(['create-payment']);
  });

  it('get, verify and list are one statement each; GraphQL payment(id) too', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 180_000 })).body;
    await warm();
    // The request's own statements; a credential lookup, when the half-second auth cache expired
    // between two requests on a loaded machine, is the next test's subject, not this one's.
    const own = async (run: () => Promise<unknown>) => (await statementsOf(run)).filter((n) => !n.startsWith('auth-'));
    expect(await own(() => request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey }))).toEqual(['payment-by-id']);
    expect(await own(() => request(app.baseUrl, 'POST', `/v1/payments/${p.id}/verify`, { token: shop.apiKey }))).toEqual(['payment-verify']);
    expect(await own(() => request(app.baseUrl, 'GET', '/v1/payments?pageSize=20&status=pending', { token: shop.apiKey }))).toEqual(['payments-list']);
    expect(await own(() => gqlOk(app.baseUrl, 'query($id: ID!) { payment(id: $id) { id status metadata checkoutUrl } }', { id: p.id }, shop.apiKey))).toEqual(['payment-by-id']);
  });

  it('the public checkout view is one statement (payment, project, card and link joined)', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 185_000 })).body;
    const sent = await statementsOf(async () => expect((await request(app.baseUrl, 'GET', `/v1/checkout/${p.token}`)).status).toBe(200));
    expect(sent).toEqual(['checkout-view-by-token']);
  });

  it('Device.online of a list of devices is one statement for the whole list (SQL device_online)', async () => {
    for (const name of ['P1', 'P2']) await gqlOk(app.baseUrl, `mutation($n: String!) { createDevice(input: { name: $n }) { token } }`, { n: name }, shop.merchantKey);
    const devices = `{ viewer { merchant { devices { online } } } }`;
    await gqlOk(app.baseUrl, devices, {}, shop.merchantKey);
    let listed: unknown;
    const sent = await statementsOf(async () => (listed = await gqlOk(app.baseUrl, devices, {}, shop.merchantKey)));
    expect(listed).toEqual({ viewer: { merchant: { devices: [{ online: true }, { online: false }, { online: false }] } } });
    // The merchant, its devices, and whether each is online (a credential lookup, when the half-second
    // auth cache expired between the two calls on a loaded machine, is not this query's).
    expect(sent.filter((s) => !s.startsWith('auth-'))).toHaveLength(3);
  });

  it('a credential not seen in the last half second costs one lookup, then none', async () => {
    await new Promise((r) => setTimeout(r, 600));
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 190_000 })).body;
    await new Promise((r) => setTimeout(r, 600));
    expect(await statementsOf(() => request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey }))).toEqual(['auth-project-key', 'payment-by-id']);
    expect(await statementsOf(() => request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey }))).toEqual(['payment-by-id']);
  });

  it('the rate limiter reserves from its shared count in growing grants: a handful of statements for 100 requests, not one each', async () => {
    // Grants start over with every minute's window.
    await clearOfWindowEdge(5_000);
    statementLog.names = [];
    try {
      for (let i = 0; i < 100; i++) await request(app.baseUrl, 'GET', '/v1/payments?pageSize=1', { token: shop.apiKey });
      const reservations = statementLog.names.filter((n) => n === 'rate-limit-reserve').length;
      // Grants of 1, 2, 4, … up to 1 % of the limit (60 of the default 6,000): 100 requests take at most 7.
      expect(reservations).toBeLessThanOrEqual(7);
    } finally {
      statementLog.names = null;
    }
  });
});
