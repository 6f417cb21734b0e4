import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/domain/webhooks/signature.js';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

// The attention events (opt-in) and payment.refunded (default set), delivered signed to a real
// receiver (docs/exceptions.md "13. What the webhooks say"; docs/webhooks.md).

let app: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp();
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

const SET_ENDPOINT = `mutation($p: ID!, $u: String!, $e: [String!]) { setWebhookEndpoint(projectId: $p, url: $u, events: $e) { secret endpoint { events } } }`;

const onPath = (path: string) => receiver.received.filter((r) => r.path === path);
async function waitFor(path: string, event: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const hit = onPath(path).find((r) => JSON.parse(r.body).event === event);
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`${path}: no ${event} among ${onPath(path).map((r) => JSON.parse(r.body).event).join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('attention webhooks', () => {
  it('payment.review_required and bank_message.needs_review reach the endpoint that opted in, signed; payment.refunded is in the default set', async () => {
    const shop = await makeShop(app);
    const opted = await gqlOk(app.baseUrl, SET_ENDPOINT, { p: shop.projectId, u: `${receiver.url}/opted`, e: ['payment.review_required', 'bank_message.needs_review', 'payment.confirmed'] }, shop.merchantKey);
    expect(opted.setWebhookEndpoint.endpoint.events).toEqual(['payment.review_required', 'bank_message.needs_review', 'payment.confirmed']);
    const secret = opted.setWebhookEndpoint.secret as string;

    const p = (await createPaymentRest(app, shop.apiKey, { amount: 150_000 })).body;
    const sim = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id, outcome: 'base_amount' } });
    expect(sim.body.bankMessage.status).toBe('needs_review');

    const review = await waitFor('/opted', 'payment.review_required');
    expect(JSON.parse(review.body)).toMatchObject({ event: 'payment.review_required', paymentId: p.id, status: 'pending', reviewReason: 'amount_without_code', deliveryId: expect.any(String), sentAt: expect.any(String) });
    expect(verifySignature(review.headers['x-service-signature'] as string, review.body, secret)).toBe(true);
    const held = await waitFor('/opted', 'bank_message.needs_review');
    expect(JSON.parse(held.body)).toMatchObject({ event: 'bank_message.needs_review', bankMessageId: sim.body.bankMessage.id, reviewReason: 'amount_without_code', candidatePaymentIds: [p.id] });
    expect(held.headers['x-service-event']).toBe('bank_message.needs_review');

    // The default set: a new endpoint gets payment.refunded, and not the attention events.
    const other = await makeShop(app);
    const defaults = await gqlOk(app.baseUrl, SET_ENDPOINT, { p: other.projectId, u: `${receiver.url}/default` }, other.merchantKey);
    expect(defaults.setWebhookEndpoint.endpoint.events).toEqual(['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled', 'payment.refunded']);
    const q = (await createPaymentRest(app, other.apiKey, { amount: 160_000 })).body;
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: other.apiKey, body: { paymentId: q.id, outcome: 'base_amount' } });
    await gqlOk(app.baseUrl, `mutation($id: ID!) { confirmPaymentManually(id: $id, note: "ok") { id } }`, { id: q.id }, other.apiKey);
    const refund = await request(app.baseUrl, 'POST', `/v1/payments/${q.id}/refunds`, { token: other.apiKey, body: { amount: 5_000, destinationCard: '6037991234567893' } });
    expect(refund.status).toBe(201);
    const refunded = await waitFor('/default', 'payment.refunded');
    expect(JSON.parse(refunded.body)).toMatchObject({
      event: 'payment.refunded',
      paymentId: q.id,
      status: 'confirmed',
      reason: null,
      refund: { id: refund.body.id, amount: '5000' },
      refundedAmount: '5000',
    });
    expect(onPath('/default').map((r) => JSON.parse(r.body).event)).not.toContain('payment.review_required');
  });
});
