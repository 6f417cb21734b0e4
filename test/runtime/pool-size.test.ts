import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { defaultPoolSize } from '../../src/runtime.js';
import { startTestApp, type TestApp } from '../support/harness.js';

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
    expect(defaultPoolSize('api')).toBe(10);
    expect(defaultPoolSize('worker')).toBe(24);
    expect(defaultPoolSize('all')).toBe(24);
    const unset = await startTestApp({ role: 'api' });
    apps.push(unset);
    expect((unset.deps.pool as pg.Pool & { options: { max: number } }).options.max).toBe(10);
  });
});
