import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src/db/pool.js';
import { createPaymentRest, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

// pg 8 warns "Calling client.query() when the client is already executing a query" (pg 9 will
// throw) when statements overlap on one connection. Prisma's pg adapter overlaps them inside an
// interactive transaction (a read including several relations loads them at once); the process's
// pool (src/db/pool.ts) runs each connection's statements one after another instead.
const OVERLAP = /already executing a query/;
const warnings: string[] = [];
const onWarning = (w: Error) => void warnings.push(w.message);
let app: TestApp;

beforeAll(async () => {
  process.on('warning', onWarning);
  app = await startTestApp({ role: 'api' });
});
afterAll(async () => {
  process.off('warning', onWarning);
  await app.stop();
});

/** Warnings are emitted on a later tick than the call that caused them. */
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('statements on one connection', () => {
  it('run one after another, in call order, when sent at once', async () => {
    const pool: pg.Pool = createPool(app.databaseUrl, 1);
    const client = await pool.connect();
    try {
      const order: number[] = [];
      const sent = [3, 2, 1, 0].map((n) => client.query(`SELECT pg_sleep(${n / 100}), ${n} AS n`).then((r) => order.push(r.rows[0].n as number)));
      await Promise.all(sent);
      expect(order).toEqual([3, 2, 1, 0]);
    } finally {
      client.release();
      await pool.end();
    }
    await settle();
    expect(warnings.filter((w) => OVERLAP.test(w))).toEqual([]);
  });

  it('so a payer’s report, a transaction that reads three relations at once, sets off no pg warning', async () => {
    const shop = await makeShop(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).body as { token: string };
    expect((await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/report`, { body: {} })).status).toBe(200);
    expect((await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/cancel`)).status).toBe(200);
    await settle();
    expect(warnings.filter((w) => OVERLAP.test(w))).toEqual([]);
  });
});
