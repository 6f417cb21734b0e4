import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { clearOfWindowEdge } from '../support/rate-window.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5', PUBLIC_RATE_LIMIT_PER_MINUTE: '5' } });
});
afterAll(() => app.stop());

describe('rate limits', () => {
  it('limits each key per minute, with 429 rate_limited and Retry-After', async () => {
    const shop = await makeShop(app);
    // The limit counts in fixed one-minute windows: these requests must fall in one.
    await clearOfWindowEdge(15_000);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await request(app.baseUrl, 'GET', '/v1/payments', { token: shop.apiKey })).status);
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    const limited = await request(app.baseUrl, 'GET', '/v1/payments', { token: shop.apiKey });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const viaGraphql = await gql(app.baseUrl, `{ viewer { kind } }`, {}, shop.apiKey);
    expect(viaGraphql.errors?.[0]?.extensions.code).toBe('rate_limited');
  });

  it('holds the limit under a burst: of 20 requests sent at once with one key, exactly 5 pass', async () => {
    const shop = await makeShop(app);
    // The limit counts in fixed one-minute windows: these requests must fall in one.
    await clearOfWindowEdge(15_000);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => request(app.baseUrl, 'GET', '/v1/payments', { token: shop.apiKey }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('limits public callers per IP', async () => {
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await request(app.baseUrl, 'GET', `/v1/checkout/${'z'.repeat(43)}`));
    expect(results.slice(0, 5).map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(results[5]!.status).toBe(429);
  });
});
