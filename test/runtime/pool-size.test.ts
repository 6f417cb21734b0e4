import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_POOL_SIZES, poolsOf } from '../../src/runtime.js';
import { createPaymentRest, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

describe('DATABASE_POOL_SIZE', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.stop();
  });

  it('is refused unless a whole number of at least 2, naming the variable', () => {
    expect(loadConfig({}).databasePoolSize).toBeUndefined();
    expect(loadConfig({ DATABASE_POOL_SIZE: '6' }).databasePoolSize).toBe(6);
    for (const bad of ['1', '0', '2.5', 'many', '501']) expect(() => loadConfig({ DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('bounds the connections a process holds under concurrent requests; unset, the role decides', async () => {
    const small = await startTestApp({ role: 'api', env: { DATABASE_POOL_SIZE: '3' } });
    apps.push(small);
    const pool = small.deps.pool as pg.Pool;
    // Twelve statements at once, each holding its connection for 200 ms: three run, nine wait.
    const started = Date.now();
    await Promise.all(Array.from({ length: 12 }, () => pool.query('select pg_sleep(0.2)')));
    expect(pool.totalCount).toBeLessThanOrEqual(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 200 - 50);
    expect(DEFAULT_POOL_SIZES).toEqual({ api: 10, worker: 24 });
    expect(poolsOf('api')).toEqual(['api']);
    expect(poolsOf('worker')).toEqual(['worker']);
    expect(poolsOf('all')).toEqual(['api', 'worker']);
    const unset = await startTestApp({ role: 'api' });
    apps.push(unset);
    expect((unset.deps.pool as pg.Pool & { options: { max: number } }).options.max).toBe(10);
    const both = await startTestApp({ role: 'all', databaseUrl: unset.databaseUrl });
    apps.push(both);
    expect((both.deps.pool as pg.Pool & { options: { max: number } }).options.max).toBe(10);
    expect((both.deps.jobPool as pg.Pool & { options: { max: number } }).options.max).toBe(24);
    // Its /metrics shows both pools; an API process's only the one it has.
    const scrape = (await request(both.baseUrl, 'GET', '/metrics')).text;
    expect(scrape).toMatch(/^gateway_db_pool_connections\{state="in_use"\} \d+$/m);
    expect(scrape).toMatch(/^gateway_db_job_pool_connections\{state="idle"\} \d+$/m);
    expect(scrape).toMatch(/^gateway_db_job_pool_waiting \d+$/m);
    expect((await request(unset.baseUrl, 'GET', '/metrics')).text).not.toContain('gateway_db_job_pool');
  });

  it('an all process keeps its requests and its jobs apart: with every request connection held, the expiry sweep still runs', async () => {
    const app = await startTestApp({ role: 'all', env: { DATABASE_POOL_SIZE: '3' } });
    apps.push(app);
    const shop = await makeShop(app);
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 60_000 })).body;
    const direct = new pg.Client({ connectionString: app.databaseUrl });
    await direct.connect();
    try {
      const pool = app.deps.pool as pg.Pool;
      // Every connection of the request pool busy for 4 s (the pool's own limit: 3).
      const held = Array.from({ length: 3 }, () => pool.query('select pg_sleep(4)'));
      await new Promise((r) => setTimeout(r, 200));
      expect(pool.totalCount - pool.idleCount).toBe(3);
      const since = Date.now();
      await direct.query(`update payments set expires_at = now() - interval '1 second' where id = $1`, [payment.id]);
      // The sweep ticks every 500 ms on the worker pool: expired long before the request pool frees.
      let status = 'pending';
      while (status === 'pending' && Date.now() - since < 3_000) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await direct.query<{ status: string }>('select status from payments where id = $1', [payment.id])).rows[0]!.status;
      }
      expect(status).toBe('expired');
      expect(pool.totalCount - pool.idleCount).toBe(3);
      await Promise.all(held);
    } finally {
      await direct.end();
    }
  });
});
