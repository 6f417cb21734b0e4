import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { METRICS_TOKEN: 'metrics-secret' } });
});
afterAll(() => app.stop());

describe('operations endpoints', () => {
  it('publishes an OpenAPI 3.1 document of every REST route', async () => {
    const res = await request(app.baseUrl, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/checkout/{token}', '/checkout/{token}/cancel', '/checkout/{token}/report', '/device/heartbeat',
      '/device/hooks/{secret}', '/device/hooks/{secret}/batch', '/device/hooks/{secret}/heartbeat', '/device/messages', '/device/messages/batch',
      '/exports/bank-messages', '/exports/ledger', '/exports/payments',
      '/links/{slug}', '/links/{slug}/payments', '/payments', '/payments/{id}', '/payments/{id}/refunds', '/payments/{id}/reject', '/payments/{id}/verify',
      '/sandbox/deposits', '/session', '/session/password', '/session/reset',
    ]);
    const create = res.body.paths['/payments'].post.requestBody.content['application/json'].schema;
    expect(create.properties.description).toEqual({ anyOf: [{ type: 'string', maxLength: 300 }, { type: 'null' }] });
  });

  it('serves Prometheus metrics behind METRICS_TOKEN, labelled by route pattern', async () => {
    const shop = await makeShop(app);
    await request(app.baseUrl, 'GET', '/v1/payments/00000000-0000-4000-8000-000000000000', { token: shop.apiKey });
    expect((await request(app.baseUrl, 'GET', '/metrics')).status).toBe(401);
    const res = await request(app.baseUrl, 'GET', '/metrics', { token: 'metrics-secret' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('http_requests_total{method="GET",route="/v1/payments/:id",status="404"} 1');
    expect(res.text).toContain('process_cpu_user_seconds_total');
    expect(res.text).not.toContain('00000000-0000-4000-8000-000000000000');
  });
});
