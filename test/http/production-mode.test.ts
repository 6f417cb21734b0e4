import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startRuntime, type Runtime } from '../../src/runtime.js';
import { createTestDatabase, gql, makeShop, request, startTestApp, testEnv, TEST_SECRET_KEY, type TestApp } from '../support/harness.js';

const INTROSPECT = '{ __schema { queryType { name } } }';

describe('NODE_ENV=production', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(() => app.stop());

  it('serves no GraphiQL', async () => {
    const res = await fetch(`${app.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('content-type')).not.toMatch(/html/);
    expect(await res.text()).not.toMatch(/graphiql/i);
  });

  it('refuses introspection with invalid_request', async () => {
    const res = await gql(app.baseUrl, INTROSPECT);
    expect(res.data).toBeUndefined();
    expect(res.errors?.[0]?.extensions.code).toBe('invalid_request');
  });

  it('gives no "Did you mean" hints', async () => {
    const shop = await makeShop(app);
    for (const query of ['{ paymnts { totalCount } }', '{ payments(status: pendng) { totalCount } }', '{ payments(statu: pending) { totalCount } }']) {
      const res = await gql(app.baseUrl, query, {}, shop.apiKey);
      expect(res.errors?.length).toBeGreaterThan(0);
      expect(JSON.stringify(res.errors)).not.toMatch(/did you mean/i);
    }
  });

  it('answers /metrics without METRICS_TOKEN as an unknown route (404 envelope)', async () => {
    const res = await request(app.baseUrl, 'GET', '/metrics');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('NODE_ENV=production with GRAPHQL_INTROSPECTION=1 and METRICS_TOKEN', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { NODE_ENV: 'production', GRAPHQL_INTROSPECTION: '1', METRICS_TOKEN: 'm-token' } });
  });
  afterAll(() => app.stop());

  it('allows introspection', async () => {
    expect((await gql(app.baseUrl, INTROSPECT)).data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });

  it('answers /metrics only with the token (401 envelope otherwise)', async () => {
    const none = await request(app.baseUrl, 'GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('unauthorized');
    expect((await request(app.baseUrl, 'GET', '/metrics', { token: 'wrong' })).status).toBe(401);
    expect((await request(app.baseUrl, 'GET', '/metrics', { token: 'm-token' })).status).toBe(200);
  });
});

describe('logs', () => {
  let runtime: Runtime;
  let baseUrl: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    const config = loadConfig(testEnv(databaseUrl, { LOG_LEVEL: 'debug' }));
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger('debug', 'gateway', sink);
    runtime = await startRuntime({ config, databaseUrl, secretKey: TEST_SECRET_KEY, role: 'api', log, port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${runtime.http!.port}`;
  });
  afterAll(() => runtime.stop());

  it('never carry payment tokens, keys or GraphQL variables from requests', async () => {
    const token = 'T'.repeat(43);
    const key = 'sk_test_ThisKeyMustNotBeLogged000000000000';
    await request(baseUrl, 'GET', `/pay/${token}`);
    await request(baseUrl, 'GET', `/v1/checkout/${token}`);
    await request(baseUrl, 'POST', `/v1/checkout/${token}/cancel`);
    await request(baseUrl, 'GET', '/v1/payments', { token: key });
    await request(baseUrl, 'POST', '/graphql', { body: { query: 'query($t: String!) { checkout(token: $t) { status } }', variables: { t: token } } });
    await request(baseUrl, 'GET', `/graphql?query=${encodeURIComponent('query($t: String!) { checkout(token: $t) { status } }')}&variables=${encodeURIComponent(JSON.stringify({ t: token }))}`);
    await new Promise((r) => setTimeout(r, 100));
    const text = lines.join('');
    expect(text).toContain('/v1/checkout/[redacted]');
    expect(text).not.toContain(token);
    expect(text).not.toContain(key);
  });
});
