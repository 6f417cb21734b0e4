import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeFee } from '../../src/domain/credit/fees.js';
import { createPaymentRest, makeShop, startTestApp, type TestApp } from '../support/harness.js';

// The create_payment SQL function (migration 20261124060000) holds rules also stated elsewhere:
// the fee (computeFee) and the code choice (a free multiple of 10 in 10..10×maxCode, a hold past
// its late window released and its amount reused). Given any input, they agree.
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
  it('computes the fee exactly as computeFee does, at and around every clamp', async () => {
    const settings = [
      { feeBps: 100, feeMin: 1000n, feeMax: 50000n },
      { feeBps: 0, feeMin: 0n, feeMax: 0n },
      { feeBps: 250, feeMin: 5000n, feeMax: 20000n },
      { feeBps: 10000, feeMin: 1n, feeMax: 2000000000n },
      { feeBps: 37, feeMin: 9000n, feeMax: 1000n },
    ];
    const amounts = [10_010n, 99_999n, 100_000n, 100_010n, 3_000_990n, 5_000_000n, 999_999_990n, 1_000_099_990n];
    for (const s of settings) {
      for (const amount of amounts) {
        const { rows } = await client.query<{ fee: string }>('SELECT payment_fee($1, $2, $3, $4) AS fee', [amount.toString(), s.feeBps, s.feeMin.toString(), s.feeMax.toString()]);
        expect(BigInt(rows[0]!.fee), `${amount} at ${s.feeBps} bps, ${s.feeMin}..${s.feeMax}`).toBe(computeFee(amount, s));
      }
    }
  });

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
