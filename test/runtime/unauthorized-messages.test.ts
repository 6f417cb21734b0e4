import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, makeProject, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let shop: Awaited<ReturnType<typeof makeProject>>;

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  shop = await makeProject(app);
});
afterAll(() => app.stop());

const PROJECT_KEY = 'This route takes a project API key (sk_live_… or sk_test_…): Authorization: Bearer <credential>.';

describe('401 names the credential kind the route takes', () => {
  it.each([
    ['a merchant key', () => shop.merchantKey],
    ['no credential', () => undefined],
    ['an unknown project key', () => 'sk_test_000000000000000000000000000000000000'],
  ])('REST /v1/payments with %s', async (_name, token) => {
    const res = await request(app.baseUrl, 'GET', '/v1/payments', { token: token() });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'unauthorized', message: PROJECT_KEY });
  });

  it('REST device route with a project key names the device token', async () => {
    const res = await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.apiKey });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/^This route takes a device token \(dt_…\)/);
  });

  it('GraphQL merchant field with a project key names the merchant key', async () => {
    const res = await gql(app.baseUrl, `mutation { createProject(input: { name: "x" }) { apiKey } }`, {}, shop.apiKey);
    expect(res.errors?.[0]?.extensions.code).toBe('unauthorized');
    expect(res.errors?.[0]?.message).toMatch(/^This field takes a merchant key \(mk_…\)/);
  });
});
