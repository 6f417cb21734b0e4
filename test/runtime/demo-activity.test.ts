import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../../src/flows/demo-activity.js';
import { gqlOk, startTestApp, type TestApp } from '../support/harness.js';

// Issue 21 item 5: the demo seeded by `npm start` shows every page of the dashboard working: payments
// in each state, a deposit waiting for a decision, one that belongs to no payment, a refund.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

describe('the demo shop', () => {
  it('is seeded with a day of activity once, and re-issuing its keys adds nothing', async () => {
    const demo = await startDemo(app.deps);
    expect(demo.created).toBe(true);
    const day = await gqlOk(
      app.baseUrl,
      `{ payments(first: 50) { edges { node { status reviewRequired refundedAmount } } }
         held: bankMessages(status: needs_review) { edges { node { reviewReason candidates { reason } } } }
         loose: bankMessages(status: unmatched) { edges { node { candidates { reason } } } } }`,
      {},
      demo.apiKey,
    );
    const statuses = day.payments.edges.map((e: any) => e.node.status);
    for (const s of ['pending', 'confirmed', 'expired', 'canceled', 'rejected']) expect(statuses).toContain(s);
    expect(day.payments.edges.some((e: any) => e.node.reviewRequired)).toBe(true);
    expect(day.payments.edges.some((e: any) => e.node.refundedAmount !== '0')).toBe(true);
    expect(day.held.edges).toEqual([{ node: { reviewReason: 'amount_without_code', candidates: [{ reason: 'base_amount' }] } }]);
    expect(day.loose.edges).toEqual([{ node: { candidates: [{ reason: 'unit_slip' }] } }]);

    const again = await startDemo(app.deps);
    expect(again.created).toBe(false);
    const count = await gqlOk(app.baseUrl, `{ payments { totalCount } }`, {}, again.apiKey);
    expect(count.payments.totalCount).toBe(statuses.length);
  });
});
