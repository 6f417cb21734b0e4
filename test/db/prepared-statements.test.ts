import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool } from '../../src/db/pool.js';
import { statement } from '../../src/db/statement.js';
import { checkoutSourceByToken } from '../../src/domain/payments/store/checkout-view.js';
import { paymentOfProject } from '../../src/domain/payments/store/reads.js';
import { createPaymentRest, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { hasPgBouncer, startPgBouncer } from '../support/pgbouncer.js';

// Issue 22 item 4: the per-request lookups are parsed once per connection where the pool reaches
// PostgreSQL itself, and stay unnamed through PgBouncer in transaction mode.
let app: TestApp;
let payment: { id: string; token: string };
let projectId: string;

beforeAll(async () => {
  app = await startTestApp();
  const shop = await makeShop(app);
  projectId = shop.projectId;
  payment = (await createPaymentRest(app, shop.apiKey, { amount: 120_000 })).body as { id: string; token: string };
});
afterAll(async () => {
  await app.stop();
});

async function preparedOn(prepareStatements: boolean): Promise<string[]> {
  // One connection, so the statements and the look at pg_prepared_statements share a session.
  const pool = createPool(app.databaseUrl, 1, { prepareStatements });
  try {
    for (let i = 0; i < 2; i++) {
      expect((await paymentOfProject(pool, payment.id, projectId))?.id).toBe(payment.id);
      expect((await checkoutSourceByToken(pool, payment.token))?.id).toBe(payment.id);
    }
    const { rows } = await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name');
    return rows.map((r) => r.name);
  } finally {
    await pool.end();
  }
}

describe('prepared statements', () => {
  it('on a pool straight to PostgreSQL, the payment read and the checkout view are prepared once per connection and give the same rows', async () => {
    expect(await preparedOn(true)).toEqual(['checkout-view-by-token', 'payment-by-id']);
  });

  it('on a pool that may run through a transaction pooler, nothing is left prepared on the server', async () => {
    expect(await preparedOn(false)).toEqual([]);
  });

  it('the service prepares only when DATABASE_URL is PostgreSQL itself (no DATABASE_DIRECT_URL apart)', async () => {
    const options = (app.deps.pool as unknown as { options: { preparing: { on: boolean } } }).options;
    expect(options.preparing.on).toBe(inject('pgPoolerUrl') === '');
    // And it answers the same either way.
    expect((await request(app.baseUrl, 'GET', `/v1/checkout/${payment.token}`)).status).toBe(200);
  });

  it.skipIf(!hasPgBouncer())('behind a transaction-mode pooler after all (no DATABASE_DIRECT_URL apart), stops naming statements at the first sign, says so once, and then answers', async () => {
    // One server connection shared by two clients: the second one's Parse meets the first one's statement.
    const bouncer = await startPgBouncer({ serverUrl: app.databaseUrl, poolSize: 1 });
    const refusals: unknown[] = [];
    const pool = createPool(bouncer.url(app.databaseUrl), 2, { prepareStatements: true, onPreparedRefused: (err) => refusals.push(err) });
    try {
      const failures: unknown[] = [];
      for (let i = 0; i < 10; i++) {
        const reads = await Promise.allSettled([paymentOfProject(pool, payment.id, projectId), paymentOfProject(pool, payment.id, projectId)]);
        for (const r of reads) if (r.status === 'rejected') failures.push(r.reason);
      }
      expect(refusals).toHaveLength(1);
      expect(['26000', '42P05']).toContain((refusals[0] as { code: string }).code);
      expect(failures.length).toBeGreaterThanOrEqual(1);
      expect(failures.length).toBeLessThanOrEqual(2);
      // From then on, every read answers.
      const after = await Promise.all(Array.from({ length: 6 }, () => paymentOfProject(pool, payment.id, projectId)));
      expect(after.every((p) => p?.id === payment.id)).toBe(true);
    } finally {
      await pool.end();
      await bouncer.stop();
    }
  });

  it('refuses to prepare a statement that selects "*": its cached plan would fail once a migration adds a column', () => {
    expect(() => statement('t-star', 'SELECT * FROM payments WHERE id = $1', { prepare: true })).toThrow(/names its columns/);
    expect(() => statement('t-alias-star', 'SELECT p.*, 1 FROM payments p', { prepare: true })).toThrow(/names its columns/);
    expect(() => statement('t-returning', 'UPDATE payments SET code = 1 RETURNING *', { prepare: true })).toThrow(/names its columns/);
    expect(() => statement('t-count', 'SELECT count(*) AS n, amount_final * 2 AS twice FROM payments', { prepare: true })).not.toThrow();
  });
});
