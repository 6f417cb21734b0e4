import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, makeShop, startTestApp, type TestApp } from '../support/harness.js';
import { insertPayment, shopOf, type Shop } from './payment-rows.js';

/**
 * The overview's other figures (docs/dashboard.md "The overview"; schema.graphql `reviewQueue`): a filtered payment list's count
 * and sums on the connection (the list's own filter), and the one count of what waits for a
 * decision (reviewQueue), each of one side, live or sandbox.
 */

async function insertDeposit(db: pg.Client, shop: Shop, status: string, simulated: boolean): Promise<void> {
  const body = `deposit ${randomUUID()}`;
  await db.query(
    `INSERT INTO bank_messages (id, merchant_id, project_id, simulated, sender, body, body_sha256, received_at, status, direction, amount, review_reason)
     VALUES ($1, $2, $3, $4, '+98700', $5, $6, now(), $7, 'deposit', 100000, $8)`,
    [randomUUID(), shop.merchantId, simulated ? shop.projectId : null, simulated, body, createHash('sha256').update(body).digest('hex'), status, status === 'needs_review' ? 'amount_without_code' : null],
  );
}

const LIST = `query($sandbox: Boolean, $status: PaymentStatus, $projectId: ID) {
  payments(sandbox: $sandbox, status: $status, projectId: $projectId, first: 1) { totalCount totalAmount totalReceived edges { node { id sandbox } } }
}`;
const TOTALS_ONLY = `query($sandbox: Boolean) { payments(sandbox: $sandbox) { totalCount totalAmount totalReceived } }`;
const QUEUE = `query($sandbox: Boolean, $projectId: ID) { reviewQueue(sandbox: $sandbox, projectId: $projectId) { deposits payments total } }`;

describe('payment list totals and the review queue', () => {
  let app: TestApp;
  let db: pg.Client;
  let live: Shop & { merchantKey: string; apiKey: string };
  let test: Shop & { apiKey: string };

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const a = await makeShop(app, { sandbox: false, credit: 10_000_000 });
    live = { ...a, ...(await shopOf(db, a, false)) };
    const b = await makeShop(app, { merchantKey: a.merchantKey });
    test = { ...b, ...(await shopOf(db, b, true)) };
    const now = new Date();
    await insertPayment(db, live, { status: 'confirmed', createdAt: now, amountRequested: 100_000, code: 120, refunded: 30_000 });
    await insertPayment(db, live, { status: 'confirmed', createdAt: now, amountRequested: 200_000, code: 10, amountReceived: 199_000 });
    await insertPayment(db, live, { status: 'pending', createdAt: now, amountRequested: 50_000, code: 20, review: true });
    await insertPayment(db, test, { status: 'confirmed', createdAt: now, amountRequested: 70_000, code: 30 });
    await insertPayment(db, test, { status: 'pending', createdAt: now, amountRequested: 80_000, code: 40, review: true });
    await insertPayment(db, test, { status: 'pending', createdAt: now, amountRequested: 90_000, code: 50, review: true });
    await insertDeposit(db, live, 'needs_review', false);
    await insertDeposit(db, live, 'unmatched', false);
    await insertDeposit(db, live, 'matched', false);
    await insertDeposit(db, test, 'unmatched', true);
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  it('counts and sums the whole filtered list, one side only', async () => {
    const liveAll = await gqlOk(app.baseUrl, LIST, { sandbox: false }, live.merchantKey);
    expect(liveAll.payments).toMatchObject({ totalCount: 3, totalAmount: String(100_120 + 200_010 + 50_020), totalReceived: String(100_120 - 30_000 + 199_000) });
    expect(liveAll.payments.edges).toHaveLength(1);
    expect(liveAll.payments.edges[0].node.sandbox).toBe(false);
    const liveConfirmed = await gqlOk(app.baseUrl, LIST, { sandbox: false, status: 'confirmed' }, live.merchantKey);
    expect(liveConfirmed.payments).toMatchObject({ totalCount: 2, totalAmount: '300130', totalReceived: '269120' });
    const testAll = await gqlOk(app.baseUrl, LIST, { sandbox: true }, live.merchantKey);
    expect(testAll.payments).toMatchObject({ totalCount: 3, totalAmount: String(70_030 + 80_040 + 90_050), totalReceived: '70030' });
    // The same filter through a project key, and a list of totals only (no page read).
    const own = await gqlOk(app.baseUrl, TOTALS_ONLY, { sandbox: true }, test.apiKey);
    expect(own.payments).toEqual({ totalCount: 3, totalAmount: '240120', totalReceived: '70030' });
    const crossed = await gqlOk(app.baseUrl, TOTALS_ONLY, { sandbox: false }, test.apiKey);
    expect(crossed.payments).toEqual({ totalCount: 0, totalAmount: '0', totalReceived: '0' });
  });

  it('REST lists take the same sandbox filter', async () => {
    const res = await fetch(`${app.baseUrl}/v1/payments?sandbox=false`, { headers: { authorization: `Bearer ${test.apiKey}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).total).toBe(0);
    const bad = await fetch(`${app.baseUrl}/v1/payments?sandbox=maybe`, { headers: { authorization: `Bearer ${test.apiKey}` } });
    expect(bad.status).toBe(400);
  });

  it('reviewQueue: what waits now, live and sandbox apart, equal to the lists it counts', async () => {
    const liveQueue = await gqlOk(app.baseUrl, QUEUE, {}, live.merchantKey);
    expect(liveQueue.reviewQueue).toEqual({ deposits: 2, payments: 1, total: 3 });
    const testQueue = await gqlOk(app.baseUrl, QUEUE, { sandbox: true }, live.merchantKey);
    expect(testQueue.reviewQueue).toEqual({ deposits: 1, payments: 2, total: 3 });
    const oneProject = await gqlOk(app.baseUrl, QUEUE, { projectId: test.projectId, sandbox: true }, live.merchantKey);
    expect(oneProject.reviewQueue).toEqual({ deposits: 1, payments: 2, total: 3 });
    // The same numbers as the lists the review page shows.
    const lists = await gqlOk(
      app.baseUrl,
      `query { a: bankMessages(status: needs_review, sandbox: false) { totalCount } b: bankMessages(status: unmatched, sandbox: false) { totalCount } p: payments(reviewRequired: true, sandbox: false) { totalCount } }`,
      {},
      live.merchantKey,
    );
    expect(lists.a.totalCount + lists.b.totalCount).toBe(2);
    expect(lists.p.totalCount).toBe(1);
  });
});
