import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, makeShop, startTestApp, type TestApp } from '../support/harness.js';

// The create_payment SQL function (src/domain/payments/sql/create_payment.sql) through the door: the
// code draw (a free multiple of code_step() in code_step()..code_step()×maxCode, a hold past its late
// window released and its amount reused) and the expiry job. Its fee: test/db/rule-owners.test.ts.
let app: TestApp;
let client: pg.Client;

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await app.stop();
});

describe('create_payment', () => {
  it('gives every code of 10..10×maxCode once, then reuses the amount of a hold past its late window', async () => {
    const shop = await makeShop(app, { settings: { maxCode: 3 } });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await createPaymentRest(app, shop.apiKey, { amount: 100_000 })).body.code);
    expect(codes.sort()).toEqual([10, 20, 30]);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 100_000 })).body.details.reasons).toEqual(['codes_exhausted']);

    const { rows } = await client.query<{ payment_id: string; amount: string }>(
      `UPDATE amount_holds SET held_until = now() - interval '1 second' WHERE amount = 100020 AND scope = $1 RETURNING payment_id, amount`,
      [`card:${shop.cardId}`],
    );
    const reused = await createPaymentRest(app, shop.apiKey, { amount: 100_000 });
    expect(reused.status).toBe(201);
    expect(reused.body.code).toBe(20);
    const old = await client.query<{ released: boolean }>('SELECT released_at IS NOT NULL AS released FROM amount_holds WHERE payment_id = $1', [rows[0]!.payment_id]);
    expect(old.rows[0]!.released).toBe(true);
  });

  it('enqueues the expiry job with the payment, due at its expiresAt, through pg-boss’s own insert', async () => {
    const shop = await makeShop(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 120_000 })).body;
    const { rows } = await client.query<{ start_after: Date; state: string }>(
      `SELECT start_after, state FROM pgboss.job WHERE name = 'expire-payment' AND data->>'paymentId' = $1`,
      [p.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.state).toBe('created');
    expect(rows[0]!.start_after.toISOString()).toBe(p.expiresAt);
  });
});
