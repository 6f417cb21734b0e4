import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  app = await startTestApp();
  shop = await makeShop(app);
});
afterAll(() => app.stop());

const get = (id: string, token = shop.apiKey) => request(app.baseUrl, 'GET', `/v1/payments/${id}`, { token });
const verify = (id: string) => request(app.baseUrl, 'POST', `/v1/payments/${id}/verify`, { token: shop.apiKey });
const reject = (id: string, body: unknown) => request(app.baseUrl, 'POST', `/v1/payments/${id}/reject`, { token: shop.apiKey, body });

describe('list and get', () => {
  it('lists newest first with filters, inclusive dates and pagination', async () => {
    const own = await makeShop(app);
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await createPaymentRest(app, own.apiKey, { amount: 30_000 + i * 1000, orderId: i % 2 ? 'odd' : 'even' })).body);
    await request(app.baseUrl, 'POST', `/v1/payments/${made[1].id}/reject`, { token: own.apiKey, body: { reason: 'no stock' } });
    const all = await request(app.baseUrl, 'GET', '/v1/payments?pageSize=2', { token: own.apiKey });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, pageSize: 2, total: 5 });
    expect(all.body.items.map((p: { id: string }) => p.id)).toEqual([made[4].id, made[3].id]);
    const page3 = await request(app.baseUrl, 'GET', '/v1/payments?pageSize=2&page=3', { token: own.apiKey });
    expect(page3.body.items.map((p: { id: string }) => p.id)).toEqual([made[0].id]);
    const odd = await request(app.baseUrl, 'GET', '/v1/payments?orderId=odd', { token: own.apiKey });
    expect(odd.body.total).toBe(2);
    const rejected = await request(app.baseUrl, 'GET', '/v1/payments?status=rejected', { token: own.apiKey });
    expect(rejected.body.items.map((p: { id: string }) => p.id)).toEqual([made[1].id]);
    const exact = encodeURIComponent(made[2].createdAt);
    const window = await request(app.baseUrl, 'GET', `/v1/payments?from=${exact}&to=${exact}`, { token: own.apiKey });
    expect(window.body.items.map((p: { id: string }) => p.id)).toEqual([made[2].id]);
    expect((await request(app.baseUrl, 'GET', '/v1/payments?pageSize=100', { token: own.apiKey })).status).toBe(200);
  });

  it.each(['pageSize=101', 'pageSize=0', 'page=0', 'status=paid', 'from=yesterday', 'to=2026-13-01'])('refuses ?%s with 400', async (q) => {
    const res = await request(app.baseUrl, 'GET', `/v1/payments?${q}`, { token: shop.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  it('never shows one project’s payment to another project’s key', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 30_000 })).body;
    const other = await makeShop(app);
    const foreign = await get(p.id, other.apiKey);
    const missing = await get('00000000-0000-4000-8000-000000000000', other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await get('not-a-uuid')).status).toBe(404);
    expect((await request(app.baseUrl, 'POST', `/v1/payments/${p.id}/verify`, { token: other.apiKey })).status).toBe(404);
    expect((await request(app.baseUrl, 'GET', '/v1/payments', { token: other.apiKey })).body.total).toBe(0);
    const viaGraphql = await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { id } }`, { id: p.id }, other.apiKey);
    expect(viaGraphql.payment).toBeNull();
    const mutate = await gql(app.baseUrl, `mutation($id: ID!) { rejectPayment(id: $id, reason: "x") { id } }`, { id: p.id }, other.apiKey);
    expect(mutate.errors?.[0]?.extensions.code).toBe('not_found');
  });
});

describe('verify, reject and manual confirmation', () => {
  it('verify of a pending payment says not verified and counts the call', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 30_000, orderId: 'v-1' })).body;
    const v = await verify(p.id);
    expect(v.status).toBe(200);
    expect(v.body).toEqual({
      id: p.id, status: 'pending', verified: false, alreadyVerified: false, orderId: 'v-1', amountRequested: '30000',
      amountFinal: p.amountFinal, confirmedAt: null, confirmationSource: null, payerCardLast4: null, sandbox: true,
    });
    expect((await get(p.id)).body.verifyCount).toBe(1);
  });

  it('rejects a pending payment with a reason, records the event, and refuses a second transition with 409', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 30_000 })).body;
    expect((await reject(p.id, {})).status).toBe(400);
    expect((await reject(p.id, { reason: 'r'.repeat(301) })).status).toBe(400);
    const done = await reject(p.id, { reason: 'r'.repeat(300) });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('rejected');
    const again = await reject(p.id, { reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'invalid_state', details: { status: 'rejected' } });
    const events = await app.deps.prisma.event.findMany({ where: { paymentId: p.id } });
    // A `json` column is read as its text (src/db/pool.ts).
    expect(events.map((e) => [e.type, (JSON.parse(e.payload as string) as { reason: string }).reason])).toEqual([['payment.rejected', 'r'.repeat(300)]]);
    const confirm = await gql(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id) { status } }`, { id: p.id }, shop.apiKey);
    expect(confirm.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_state', details: { status: 'rejected' } });
  });

  it('confirms manually: source manual, confirmedAt set, then verify says verified', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 30_000 })).body;
    const c = await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "ok") { status confirmationSource confirmedAt } }`, { id: p.id }, shop.apiKey);
    expect(c.confirmPaymentManually).toMatchObject({ status: 'confirmed', confirmationSource: 'manual' });
    const first = await verify(p.id);
    expect(first.body).toMatchObject({ verified: true, alreadyVerified: false, status: 'confirmed', confirmationSource: 'manual' });
    const second = await verify(p.id);
    expect(second.body).toMatchObject({ verified: true, alreadyVerified: true });
    const row = await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.receiptCode).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect((await reject(p.id, { reason: 'late' })).status).toBe(409);
  });
});

describe('expiry', () => {
  it('expires a pending payment within 5 s of its deadline, through the sweep', async () => {
    const quick = await makeShop(app, { settings: { paymentTimeLimitSeconds: 5 } });
    const p = (await createPaymentRest(app, quick.apiKey, { amount: 30_000 })).body;
    const deadline = Date.parse(p.expiresAt);
    let status = 'pending';
    while (status === 'pending' && Date.now() < deadline + 5_000) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await get(p.id, quick.apiKey)).body.status;
    }
    expect(status).toBe('expired');
    const row = await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.expiredAt!.getTime() - deadline).toBeLessThanOrEqual(5_000);
    expect(row.expiredAt!.getTime()).toBeGreaterThanOrEqual(deadline);
    expect((await app.deps.prisma.event.findMany({ where: { paymentId: p.id } })).map((e) => e.type)).toEqual(['payment.expired']);
  });

  it('an expiry asked for before the deadline does nothing; the sweep expires nothing early', async () => {
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 32_000 })).body;
    const { expirePayment } = await import('../../src/domain/payments/expiry.js');
    const { expireDuePayments } = await import('../../src/domain/payments/expiry-batch.js');
    expect(await expirePayment(app.deps, p.id)).toBe(false);
    await expireDuePayments(app.deps);
    expect((await get(p.id)).body.status).toBe('pending');
    // A create enqueues nothing for its expiry: the deadline is the row's.
    const jobs = await app.deps.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM pgboss.job WHERE data->>'paymentId' = $1`, p.id);
    expect(Number(jobs[0]!.n)).toBe(0);
  });

  it('flags a payer who reported paying but whose deposit never came', async () => {
    const quick = await makeShop(app, { settings: { paymentTimeLimitSeconds: 5 } });
    const p = (await createPaymentRest(app, quick.apiKey, { amount: 30_000 })).body;
    await app.deps.prisma.payment.update({ where: { id: p.id }, data: { payerReportedPaidAt: new Date() } });
    const { expirePayment } = await import('../../src/domain/payments/expiry.js');
    await app.deps.prisma.payment.update({ where: { id: p.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expirePayment(app.deps, p.id);
    const after = (await get(p.id, quick.apiKey)).body;
    expect(after).toMatchObject({ status: 'expired', reviewRequired: true, reviewReason: 'payer_reported_no_deposit' });
  });

  it('allows a manual late confirmation inside the late window and refuses it after', async () => {
    const late = await makeShop(app, { settings: { paymentTimeLimitSeconds: 5, lateWindowSeconds: 3600 } });
    const p = (await createPaymentRest(app, late.apiKey, { amount: 30_000 })).body;
    const { expirePayment } = await import('../../src/domain/payments/expiry.js');
    await app.deps.prisma.payment.update({ where: { id: p.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expirePayment(app.deps, p.id);
    const ok = await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id) { status } }`, { id: p.id }, late.apiKey);
    expect(ok.confirmPaymentManually.status).toBe('confirmed');
    expect((await app.deps.prisma.event.findMany({ where: { paymentId: p.id }, orderBy: { seq: 'asc' } })).map((e) => e.type)).toEqual(['payment.expired', 'payment.confirmed']);

    const q = (await createPaymentRest(app, late.apiKey, { amount: 31_000 })).body;
    await app.deps.prisma.payment.update({ where: { id: q.id }, data: { expiresAt: new Date(Date.now() - 10_000), lateUntil: new Date(Date.now() - 1) } });
    await expirePayment(app.deps, q.id);
    const refused = await gql(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id) { status } }`, { id: q.id }, late.apiKey);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_state', details: { status: 'expired' } });
  });
});
