import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/harness.js';

let client: pg.Client;
let ids: { merchant: string; project: string; card: string };

async function insertPayment(overrides: Record<string, unknown> = {}) {
  const row = {
    id: randomUUID(),
    project_id: ids.project,
    merchant_id: ids.merchant,
    card_id: ids.card,
    amount_requested: 100_000,
    code: 120,
    amount_final: 100_120,
    amount_mode: 'unique_code',
    token: randomBytes(32).toString('base64url'),
    expires_at: new Date(Date.now() + 900_000),
    late_until: new Date(Date.now() + 4_500_000),
    sandbox: true,
    ...overrides,
  };
  const cols = Object.keys(row);
  await client.query(
    `insert into payments (${cols.join(',')}) values (${cols.map((_, i) => `$${i + 1}`).join(',')})`,
    Object.values(row),
  );
  return row.id;
}

async function expectPgError(promise: Promise<unknown>, code: string) {
  await expect(promise).rejects.toMatchObject({ code });
}

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  const m = await client.query(`insert into merchants (name) values ('M') returning id`);
  const p = await client.query(`insert into projects (merchant_id, name, sandbox) values ($1, 'P', true) returning id`, [m.rows[0].id]);
  const c = await client.query(
    `insert into cards (project_id, merchant_id, bank_code, card_number, holder_name) values ($1, $2, 'mellat', '6104337812345678', 'H') returning id`,
    [p.rows[0].id, m.rows[0].id],
  );
  ids = { merchant: m.rows[0].id, project: p.rows[0].id, card: c.rows[0].id };
});
afterAll(() => client.end());

describe('money invariants held by the database', () => {
  it('refuses a second live hold of the same amount in one scope, and allows it once released', async () => {
    const a = await insertPayment();
    const b = await insertPayment();
    const until = new Date(Date.now() + 3_600_000);
    await client.query(`insert into amount_holds (payment_id, scope, amount, held_until) values ($1, 'device:x', 100120, $2)`, [a, until]);
    await expectPgError(
      client.query(`insert into amount_holds (payment_id, scope, amount, held_until) values ($1, 'device:x', 100120, $2)`, [b, until]),
      '23505',
    );
    await client.query(`update amount_holds set released_at = now() where payment_id = $1`, [a]);
    await client.query(`insert into amount_holds (payment_id, scope, amount, held_until) values ($1, 'device:x', 100120, $2)`, [b, until]);
  });

  it('keeps amountRequested within 10,000..1,000,000,000 rials', async () => {
    await insertPayment({ amount_requested: 10_000, code: 10, amount_final: 10_010 });
    await insertPayment({ amount_requested: 1_000_000_000, code: 10, amount_final: 1_000_000_010 });
    await expectPgError(insertPayment({ amount_requested: 9_999, code: 10, amount_final: 10_009 }), '23514');
    await expectPgError(insertPayment({ amount_requested: 1_000_000_001, code: 10, amount_final: 1_000_000_011 }), '23514');
  });

  it('requires amountFinal = amountRequested + code, with code a multiple of 10 up to 99,990', async () => {
    await expectPgError(insertPayment({ amount_final: 100_121 }), '23514');
    await expectPgError(insertPayment({ code: 125, amount_final: 100_125 }), '23514');
    await expectPgError(insertPayment({ code: 100_000, amount_final: 200_000 }), '23514');
    await insertPayment({ code: 99_990, amount_final: 199_990 });
  });

  it('accepts only the five statuses, and confirmed exactly when confirmedAt is set', async () => {
    await expectPgError(insertPayment({ status: 'paid' }), '23514');
    await expectPgError(insertPayment({ status: 'confirmed' }), '23514');
    await expectPgError(insertPayment({ confirmed_at: new Date() }), '23514');
  });

  it('never lets a sandbox payment carry a fee', async () => {
    await expectPgError(insertPayment({ fee_amount: 1000, fee_state: 'reserved' }), '23514');
  });

  it('lets one bank message confirm at most one payment', async () => {
    const msg = await client.query(
      `insert into bank_messages (merchant_id, sender, body, body_sha256, received_at) values ($1, 's', 'b', 'h', now()) returning id`,
      [ids.merchant],
    );
    const confirmed = { status: 'confirmed', confirmed_at: new Date(), confirmation_source: 'auto_sms', confirmed_by_message_id: msg.rows[0].id };
    await insertPayment(confirmed);
    await expectPgError(insertPayment(confirmed), '23505');
  });

  it('keeps the credit ledger append-only and one fee per payment', async () => {
    const payment = await insertPayment();
    await client.query(`insert into credit_ledger_entries (merchant_id, kind, amount, balance_after) values ($1, 'topup', 5000, 5000)`, [ids.merchant]);
    await expectPgError(client.query(`update credit_ledger_entries set amount = 1`), '23001');
    await expectPgError(client.query(`delete from credit_ledger_entries`), '23001');
    await client.query(`insert into credit_ledger_entries (merchant_id, kind, amount, balance_after, payment_id) values ($1, 'fee', -1000, 4000, $2)`, [ids.merchant, payment]);
    await expectPgError(
      client.query(`insert into credit_ledger_entries (merchant_id, kind, amount, balance_after, payment_id) values ($1, 'fee', -1000, 3000, $2)`, [ids.merchant, payment]),
      '23505',
    );
  });

  it("refuses a card whose device belongs to another merchant", async () => {
    const other = await client.query(`insert into merchants (name) values ('Other') returning id`);
    const device = await client.query(
      `insert into devices (merchant_id, name, token_hash, token_prefix) values ($1, 'd', $2, 'dt_x') returning id`,
      [other.rows[0].id, randomUUID()],
    );
    await expectPgError(
      client.query(
        `insert into cards (project_id, merchant_id, device_id, bank_code, card_number, holder_name) values ($1, $2, $3, 'mellat', '6104337812345678', 'H')`,
        [ids.project, ids.merchant, device.rows[0].id],
      ),
      '23503',
    );
  });

  it('stores one original per (device, body, receivedAt); repeats must point at it', async () => {
    const device = await client.query(
      `insert into devices (merchant_id, name, token_hash, token_prefix) values ($1, 'd', $2, 'dt_y') returning id`,
      [ids.merchant, randomUUID()],
    );
    const at = new Date();
    const insert = (dup: string | null) =>
      client.query(
        `insert into bank_messages (merchant_id, device_id, sender, body, body_sha256, received_at, status, duplicate_of_id)
         values ($1, $2, 's', 'same', 'hash', $3, $4, $5) returning id`,
        [ids.merchant, device.rows[0].id, at, dup ? 'duplicate' : 'received', dup],
      );
    const first = await insert(null);
    await expectPgError(insert(null), '23505');
    await insert(first.rows[0].id);
  });
});
