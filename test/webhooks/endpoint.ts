import { gqlOk, makeShop, request, createPaymentRest, type TestApp } from '../support/harness.js';

const SET_ENDPOINT = `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret endpoint { id } } }`;

/** A sandbox shop whose webhook endpoint is `url`. */
export async function shopWithEndpoint(app: TestApp, url: string) {
  const shop = await makeShop(app);
  const set = await gqlOk(app.baseUrl, SET_ENDPOINT, { p: shop.projectId, u: url }, shop.merchantKey);
  return { ...shop, secret: set.setWebhookEndpoint.secret as string, endpointId: set.setWebhookEndpoint.endpoint.id as string };
}

export function setEndpoint(app: TestApp, shop: { projectId: string; merchantKey: string }, url: string) {
  return gqlOk(app.baseUrl, SET_ENDPOINT, { p: shop.projectId, u: url }, shop.merchantKey);
}

/** A sandbox payment confirmed by a simulated deposit: one payment.confirmed event. Returns when it committed. */
export async function confirmedPayment(app: TestApp, apiKey: string, amount = 60_000) {
  const p = (await createPaymentRest(app, apiKey, { amount })).body;
  const res = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: apiKey, body: { paymentId: p.id } });
  if (res.status >= 300) throw new Error(`deposit: ${res.status} ${res.text}`);
  return { id: p.id as string, committedAt: Date.now() };
}
