import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { setTopUpProject } from '../../src/domain/credit/topups.js';
import { gql, gqlOk, makeMerchant, makeShop, request, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { runTs } from '../support/process.js';

/**
 * Fee credit bought through the gateway itself (docs/live-setup.md "2. Fee credit"): a top-up is a
 * payment on the operator's top-up project; its confirmation credits the merchant's
 * amountRequested exactly once, whichever way and however many times at once it is confirmed.
 */

const TOP_UP = `mutation($amount: Amount!, $currency: Currency) { createCreditTopUp(amount: $amount, currency: $currency) { amount credited payment { id checkoutUrl amountFinal amountRequested status } } }`;
const CREDIT = `{ creditTopUpAvailable viewer { merchant { credit { balance available } ledger(first: 5) { edges { node { kind amount paymentId balanceAfter } } } } } creditTopUps { amount credited payment { id status } } }`;

describe('fee credit top-up', { timeout: 60_000 }, () => {
  let app: TestApp;
  let db: pg.Client;
  let operator: Awaited<ReturnType<typeof makeShop>>;
  let shop: { merchantId: string; merchantKey: string };

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    // The operator's own merchant, with a sandbox project (payments confirmed by simulation).
    operator = await makeShop(app, { sandbox: true });
    shop = await makeMerchant(app, { name: 'Shop buying credit', credit: 0 });
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  it('without a top-up project: creditTopUpAvailable false, createCreditTopUp invalid_state topup_unavailable', async () => {
    await setTopUpProject(app.deps, operatorActor, null);
    const data = await gqlOk(app.baseUrl, '{ creditTopUpAvailable }', {}, shop.merchantKey);
    expect(data.creditTopUpAvailable).toBe(false);
    const res = await gql(app.baseUrl, TOP_UP, { amount: 100_000 }, shop.merchantKey);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_state', details: { reason: 'topup_unavailable' } });
  });

  it('credits amountRequested exactly once under concurrent confirmations (simulations and by hand), in the ledger and the audit log', async () => {
    await setTopUpProject(app.deps, operatorActor, operator.projectId);
    expect((await gqlOk(app.baseUrl, '{ creditTopUpAvailable }', {}, shop.merchantKey)).creditTopUpAvailable).toBe(true);
    // The operator's own merchant does not buy from itself.
    const own = await gql(app.baseUrl, TOP_UP, { amount: 100_000 }, operator.merchantKey);
    expect(own.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_state', details: { reason: 'topup_unavailable' } });
    const bad = await gql(app.baseUrl, TOP_UP, { amount: 5 }, shop.merchantKey);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'amount' }] } });

    const made = (await gqlOk(app.baseUrl, TOP_UP, { amount: 50_000, currency: 'IRT' }, shop.merchantKey)).createCreditTopUp;
    expect(made).toMatchObject({ amount: '500000', credited: false, payment: { amountRequested: '500000', status: 'pending' } });
    expect(BigInt(made.payment.amountFinal)).toBeGreaterThan(500_000n);
    expect(made.payment.checkoutUrl).toMatch(/\/pay\/[A-Za-z0-9_-]+$/);
    const paymentId: string = made.payment.id;

    // Eight confirmations at once: six simulated deposits and two confirmations by hand.
    const simulate = () => request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: operator.apiKey, body: { paymentId, outcome: 'match' } });
    const byHand = () => gql(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "seen in the bank") { id status } }`, { id: paymentId }, operator.merchantKey);
    const answers = await Promise.all([simulate(), byHand(), simulate(), simulate(), byHand(), simulate(), simulate(), simulate()]);
    for (const a of answers) expect('status' in a && typeof a.status === 'number' ? a.status : 200).toBeLessThan(500);

    const after = await gqlOk(app.baseUrl, CREDIT, {}, shop.merchantKey);
    expect(after.viewer.merchant.credit).toEqual({ balance: '500000', available: '500000' });
    const topups = after.viewer.merchant.ledger.edges.map((e: { node: unknown }) => e.node);
    expect(topups).toEqual([{ kind: 'topup', amount: '500000', paymentId, balanceAfter: '500000' }]);
    expect(after.creditTopUps).toEqual([{ amount: '500000', credited: true, payment: { id: paymentId, status: 'confirmed' } }]);
    const audit = await db.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'merchant.credit_topped_up' AND subject_id = $1`, [shop.merchantId]);
    expect(audit.rows[0].n).toBe(1);

    // The database itself refuses a second top-up entry for the payment.
    await expect(
      db.query(`INSERT INTO credit_ledger_entries (merchant_id, kind, amount, balance_after, payment_id) VALUES ($1, 'topup', 500000, 1000000, $2)`, [shop.merchantId, paymentId]),
    ).rejects.toThrow(/credit_ledger_one_topup_per_payment/);
  });

  it('CLI operator topup-project --id P names the project; --clear stops top-ups', async () => {
    const env = testEnv(app.databaseUrl);
    const set = await runTs('src/cli/index.ts', ['operator', 'topup-project', '--id', operator.projectId, '--json'], env);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ projectId: operator.projectId, merchantId: expect.any(String) });
    const cleared = await runTs('src/cli/index.ts', ['operator', 'topup-project', '--clear', '--json'], env);
    expect(JSON.parse(cleared.stdout)).toEqual({ projectId: null, merchantId: null });
    const audit = await db.query(`SELECT DISTINCT action FROM audit_events WHERE subject_id = $1 AND action LIKE 'project.topup_project_%'`, [operator.projectId]);
    expect(audit.rows.map((r) => r.action).sort()).toEqual(['project.topup_project_cleared', 'project.topup_project_set']);
    expect((await gqlOk(app.baseUrl, '{ creditTopUpAvailable }', {}, shop.merchantKey)).creditTopUpAvailable).toBe(false);
    const unknown = await runTs('src/cli/index.ts', ['operator', 'topup-project', '--id', '00000000-0000-4000-8000-000000000000', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe('not_found');
  });
});
