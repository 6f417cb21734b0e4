import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_DUE_PENDING } from '../../src/domain/payments/store/locks.js';
import { createPaymentRest, makeShop, startAppWithClient, type TestApp } from '../support/harness.js';
import { planWithoutSeqScan } from '../support/db-rows.js';

// The create_payment SQL function (src/domain/payments/sql/create_payment.sql) through the door: the
// code draw (a free multiple of code_step() in code_step()..code_step()×maxCode, a hold past its late
// window released and its amount reused). Its fee: test/db/rule-owners.test.ts.
let app: TestApp;
let client: pg.Client;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ app, client, stop } = await startAppWithClient());
});
afterAll(() => stop());

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

  it('writes no job: the expiry sweep finds the payment by its deadline, through the pending-expiry index', async () => {
    const shop = await makeShop(app);
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 120_000 })).body;
    const jobs = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pgboss.job WHERE data->>'paymentId' = $1`, [p.id]);
    expect(jobs.rows[0]!.n).toBe('0');
    const row = await client.query<{ expires_at: Date }>('SELECT expires_at FROM payments WHERE id = $1', [p.id]);
    expect(row.rows[0]!.expires_at.toISOString()).toBe(p.expiresAt);
    // The sweep's claim (claimDuePending) reads the partial index, not the table, even with many rows.
    const text = await planWithoutSeqScan(client, CLAIM_DUE_PENDING, [25]);
    expect(text).toContain('payments_pending_expiry_idx');
    // The deadline bounds the index scan (a volatile clock would only filter what it returns).
    expect(text).toMatch(/Index Cond: \(expires_at <= statement_timestamp\(\)\)/);
  });
});
