import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gql, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

// What the dashboard needed from the public API (issue 21: "if it needs something, the API gets it").

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

describe('API for the dashboard', () => {
  it('payments filter by amount and card last 4, and carry their project, card and late window', async () => {
    const shop = await makeShop(app);
    const a = (await createPaymentRest(app, shop.apiKey, { amount: 111_000 })).body;
    const b = (await createPaymentRest(app, shop.apiKey, { amount: 222_000 })).body;
    await request(app.baseUrl, 'POST', `/v1/checkout/${b.token}/report`, { body: { payerCardLast4: '9876' } });
    const Q = `query($amount: Amount, $card: String) { payments(amount: $amount, cardLast4: $card) { totalCount edges { node { id projectId cardId cardLast4 lateUntil expiresAt } } } }`;
    const byAmount = await gqlOk(app.baseUrl, Q, { amount: '111000' }, shop.apiKey);
    expect(byAmount.payments.edges.map((e: any) => e.node.id)).toEqual([a.id]);
    const node = byAmount.payments.edges[0].node;
    expect(node).toMatchObject({ projectId: shop.projectId, cardId: shop.cardId, cardLast4: '5678' });
    expect(new Date(node.lateUntil).getTime()).toBeGreaterThan(new Date(node.expiresAt).getTime());
    expect((await gqlOk(app.baseUrl, Q, { amount: b.amountFinal }, shop.apiKey)).payments.edges.map((e: any) => e.node.id)).toEqual([b.id]);
    expect((await gqlOk(app.baseUrl, Q, { card: '9876' }, shop.apiKey)).payments.edges.map((e: any) => e.node.id)).toEqual([b.id]);
    expect((await gqlOk(app.baseUrl, Q, { card: '5678' }, shop.apiKey)).payments.totalCount).toBe(2);
    expect((await gql(app.baseUrl, Q, { card: '12' }, shop.apiKey)).errors?.[0]?.extensions.code).toBe('invalid_request');
  });

  it('bankMessages count their matches and show the balance and trust of each', async () => {
    const shop = await makeShop(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 300_000 })).body;
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id, outcome: 'base_amount' } });
    const res = await gqlOk(app.baseUrl, `{ bankMessages(status: needs_review, first: 1) { totalCount edges { node { balance trusted } } } }`, {}, shop.apiKey);
    expect(res.bankMessages).toEqual({ totalCount: 1, edges: [{ node: { balance: null, trusted: false } }] });
  });

  it('updatePaymentLink changes a link and takes it down, audited', async () => {
    const shop = await makeShop(app);
    const made = await gqlOk(app.baseUrl, `mutation($p: ID!) { createPaymentLink(input: { projectId: $p, slug: "upd-${Date.now()}", title: "Old", amount: 50000 }) { id slug } }`, { p: shop.projectId }, shop.merchantKey);
    const { id, slug } = made.createPaymentLink;
    const U = `mutation($id: ID!, $input: UpdatePaymentLinkInput!) { updatePaymentLink(id: $id, input: $input) { title description active } }`;
    expect((await gqlOk(app.baseUrl, U, { id, input: { title: 'New', description: 'Better' } }, shop.merchantKey)).updatePaymentLink).toEqual({ title: 'New', description: 'Better', active: true });
    expect((await request(app.baseUrl, 'GET', `/v1/links/${slug}`)).body.title).toBe('New');
    await gqlOk(app.baseUrl, U, { id, input: { active: false } }, shop.merchantKey);
    expect((await request(app.baseUrl, 'GET', `/v1/links/${slug}`)).status).toBe(404);
    const other = await makeShop(app);
    expect((await gql(app.baseUrl, U, { id, input: { active: true } }, other.merchantKey)).errors?.[0]?.extensions.code).toBe('not_found');
    expect((await gql(app.baseUrl, U, { id, input: { bogus: 1 } }, shop.merchantKey)).errors?.[0]?.extensions.code).toBe('invalid_request');
    const audit = await gqlOk(app.baseUrl, `query($s: ID) { auditEvents(subjectId: $s) { edges { node { action changes } } } }`, { s: id }, shop.merchantKey);
    expect(audit.auditEvents.edges.map((e: any) => e.node.action)).toEqual(['payment_link.updated', 'payment_link.updated', 'payment_link.created']);
  });
});
