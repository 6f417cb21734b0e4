import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPaymentRow, insertSandboxShop } from '../support/db-rows.js';
import { createTestDatabase } from '../support/harness.js';

let client: pg.Client;
let ids: { merchant: string; project: string; card: string; liveProject: string; liveCard: string; device: string; device2: string };

const insertPayment = (overrides: Record<string, unknown> = {}) => insertPaymentRow(client, ids, overrides);

/** A pending live payment with its 1,000-rial fee reserved, on the live card. */
function insertLivePayment(overrides: Record<string, unknown> = {}) {
  return insertPayment({ project_id: ids.liveProject, card_id: ids.liveCard, sandbox: false, fee_amount: 1000, fee_state: 'reserved', fee_stripe: 0, ...overrides });
}

async function inTransaction(work: () => Promise<unknown>) {
  await client.query('begin');
  try {
    await work();
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  }
}

async function realMessage(simulated = false) {
  const msg = await client.query(
    `insert into bank_messages (merchant_id, sender, body, body_sha256, received_at, simulated) values ($1, 's', $2, 'h', now(), $3) returning id`,
    [ids.merchant, randomUUID(), simulated],
  );
  return msg.rows[0].id as string;
}

/** Confirmed the way the service does it: status, fee debited and its ledger entry in one transaction. */
async function confirmedLivePayment() {
  const id = await insertLivePayment();
  await inTransaction(async () => {
    await client.query(`update payments set status = 'confirmed', confirmed_at = now(), confirmation_source = 'manual', fee_state = 'debited', amount_received = amount_final where id = $1`, [id]);
    await client.query(`insert into credit_ledger_entries (merchant_id, kind, amount, balance_after, payment_id) values ($1, 'fee', -1000, 4000, $2)`, [ids.merchant, id]);
  });
  return id;
}

async function expectPgError(promise: Promise<unknown>, code: string) {
  await expect(promise).rejects.toMatchObject({ code });
}

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  const shop = await insertSandboxShop(client);
  const lp = await client.query(`insert into projects (merchant_id, name, sandbox) values ($1, 'L', false) returning id`, [shop.merchant]);
  const [d1, d2] = await Promise.all(
    ['d1', 'd2'].map((name) =>
      client.query(`insert into devices (merchant_id, name, token_hash, token_prefix) values ($1, $2, $3, 'dt_z') returning id`, [shop.merchant, name, randomUUID()]),
    ),
  );
  const lc = await client.query(
    `insert into cards (project_id, merchant_id, device_id, bank_code, card_number, holder_name) values ($1, $2, $3, 'mellat', '6104337812349999', 'H') returning id`,
    [lp.rows[0].id, shop.merchant, d1!.rows[0].id],
  );
  // The stripe the live payments below reserve on (fee_stripe 0), with room for all their fees.
  await client.query(`insert into credit_stripes (merchant_id, stripe, lease, reserved) values ($1, 0, 1000000, 1000000)`, [shop.merchant]);
  ids = {
    ...shop,
    liveProject: lp.rows[0].id,
    liveCard: lc.rows[0].id,
    device: d1!.rows[0].id,
    device2: d2!.rows[0].id,
  };
});
afterAll(() => client.end());

describe('money invariants held by the database', () => {
  it('refuses a second live hold of the same amount in one scope, and allows it once released', async () => {
    const a = await insertPayment();
    const b = await insertPayment();
    const until = new Date(Date.now() + 3_600_000);
    const scope = `card:${ids.card}`;
    await client.query(`insert into amount_holds (payment_id, scope, amount, held_until) values ($1, $3, 100120, $2)`, [a, until, scope]);
    await expectPgError(
      client.query(`insert into amount_holds (payment_id, scope, amount, held_until) values ($1, $3, 100120, $2)`, [b, until, scope]),
      '23505',
    );
    await client.query(`update amount_holds set released_at = now() where payment_id = $1`, [a]);
    await client.query(`insert into amount_holds (payment_id, scope, amount, held_until) values ($1, $3, 100120, $2)`, [b, until, scope]);
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

  it('a reserved fee names its credit stripe, and a stripe never reserves beyond its lease or below zero', async () => {
    await expectPgError(insertLivePayment({ fee_stripe: null }), '23514');
    await expectPgError(insertLivePayment({ fee_stripe: -1 }), '23514');
    await client.query(`insert into credit_stripes (merchant_id, stripe, lease, reserved) values ($1, 7, 5000, 5000)`, [ids.merchant]);
    await expectPgError(client.query(`update credit_stripes set reserved = reserved + 1 where merchant_id = $1 and stripe = 7`, [ids.merchant]), '23514');
    await expectPgError(client.query(`update credit_stripes set reserved = -1 where merchant_id = $1 and stripe = 7`, [ids.merchant]), '23514');
    await client.query(`update credit_stripes set reserved = 0 where merchant_id = $1 and stripe = 7`, [ids.merchant]);
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

  it('keeps receipt codes and confirming messages unique among the payments that have one, and indexes no other (migration payments_partial_unique)', async () => {
    const msg = await client.query(
      `insert into bank_messages (merchant_id, sender, body, body_sha256, received_at) values ($1, 's', 'b2', 'h', now()) returning id`,
      [ids.merchant],
    );
    const confirmed = { status: 'confirmed', confirmed_at: new Date(), confirmation_source: 'manual', receipt_code: 'RCPT2345' };
    await insertPayment(confirmed);
    await expectPgError(insertPayment(confirmed), '23505');
    await insertPayment({ ...confirmed, receipt_code: 'RCPT2346', confirmation_source: 'auto_sms', confirmed_by_message_id: msg.rows[0].id });
    await expectPgError(insertPayment({ ...confirmed, receipt_code: 'RCPT2347', confirmation_source: 'auto_sms', confirmed_by_message_id: msg.rows[0].id }), '23505');
    // The payments without one (pending, expired, canceled) have no entry in either index: an update of one touches neither.
    const defs = await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where indexname in ('payments_receipt_code_key', 'payments_confirmed_by_message_id_key') order by 1`,
    );
    expect(defs.rows.map((r) => r.indexdef)).toEqual([
      expect.stringMatching(/^CREATE UNIQUE INDEX payments_confirmed_by_message_id_key ON public\.payments USING btree \(confirmed_by_message_id\) WHERE \(confirmed_by_message_id IS NOT NULL\)$/),
      expect.stringMatching(/^CREATE UNIQUE INDEX payments_receipt_code_key ON public\.payments USING btree \(receipt_code\) WHERE \(receipt_code IS NOT NULL\)$/),
    ]);
  });

  it('keeps the credit ledger append-only and one fee per payment', async () => {
    await client.query(`insert into credit_ledger_entries (merchant_id, kind, amount, balance_after) values ($1, 'topup', 5000, 5000)`, [ids.merchant]);
    await expectPgError(client.query(`update credit_ledger_entries set amount = 1`), '23001');
    await expectPgError(client.query(`delete from credit_ledger_entries`), '23001');
    const payment = await confirmedLivePayment();
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

// The guards' own refusals carry SQLSTATE GWM01 (a bug, never input: the service answers 500 and logs it).
describe('money rules of SMS evidence (docs/security.md), held by the database too', () => {
  const confirm = (id: string, extra = '') =>
    client.query(`update payments set status = 'confirmed', confirmed_at = now(), confirmation_source = 'manual', fee_state = 'debited', amount_received = amount_final${extra} where id = $1`, [id]);

  it('a confirmed live payment has exactly one fee debit of its fee, checked at commit', async () => {
    const id = await insertLivePayment();
    await expectPgError(inTransaction(() => confirm(id)), 'GWM01');
    await expectPgError(
      inTransaction(async () => {
        await confirm(id);
        await client.query(`insert into credit_ledger_entries (merchant_id, kind, amount, balance_after, payment_id) values ($1, 'fee', -999, 0, $2)`, [ids.merchant, id]);
      }),
      'GWM01',
    );
    expect((await client.query(`select status from payments where id = $1`, [id])).rows[0].status).toBe('pending');
  });

  it('a fee debit belongs to a confirmed live payment', async () => {
    const pending = await insertLivePayment();
    await expectPgError(
      client.query(`insert into credit_ledger_entries (merchant_id, kind, amount, balance_after, payment_id) values ($1, 'fee', -1000, 0, $2)`, [ids.merchant, pending]),
      'GWM01',
    );
  });

  it('a fee moves only from reserved, to debited or released, and released only for a final unconfirmed payment', async () => {
    const id = await insertLivePayment();
    await expectPgError(client.query(`update payments set fee_state = 'released' where id = $1`, [id]), '23514');
    await client.query(`update payments set status = 'canceled', canceled_at = now(), fee_state = 'released' where id = $1`, [id]);
    await expectPgError(client.query(`update payments set fee_state = 'reserved' where id = $1`, [id]), 'GWM01');
  });

  it('an expired payment’s fee is released only after its late window, and nothing is confirmed after it', async () => {
    const open = await insertLivePayment({ expires_at: new Date(Date.now() - 60_000), late_until: new Date(Date.now() + 60_000) });
    await client.query(`update payments set status = 'expired', expired_at = now() where id = $1`, [open]);
    await expectPgError(client.query(`update payments set fee_state = 'released' where id = $1`, [open]), 'GWM01');

    const closed = await insertLivePayment({ expires_at: new Date(Date.now() - 60_000), late_until: new Date(Date.now() - 1_000) });
    await expectPgError(inTransaction(() => confirm(closed)), 'GWM01');
    await client.query(`update payments set status = 'expired', expired_at = now(), fee_state = 'released' where id = $1`, [closed]);
    await expectPgError(client.query(`update payments set status = 'confirmed', confirmed_at = now(), confirmation_source = 'manual' where id = $1`, [closed]), 'GWM01');
  });

  it('statuses move only along the state machine', async () => {
    const id = await insertPayment();
    await client.query(`update payments set status = 'canceled', canceled_at = now() where id = $1`, [id]);
    await expectPgError(client.query(`update payments set status = 'pending' where id = $1`, [id]), 'GWM01');
    await expectPgError(client.query(`update payments set status = 'expired' where id = $1`, [id]), 'GWM01');
  });

  it('real SMS confirm live payments only, simulations sandbox payments only', async () => {
    const sandbox = await insertPayment();
    await expectPgError(
      client.query(`update payments set status = 'confirmed', confirmed_at = now(), confirmation_source = 'auto_sms', confirmed_by_message_id = $2 where id = $1`, [
        sandbox,
        await realMessage(false),
      ]),
      'GWM01',
    );
    await client.query(`update payments set status = 'confirmed', confirmed_at = now(), confirmation_source = 'auto_sms', confirmed_by_message_id = $2, amount_received = amount_final where id = $1`, [
      sandbox,
      await realMessage(true),
    ]);
    const live = await insertLivePayment();
    const simulated = await realMessage(true);
    await expectPgError(inTransaction(() => confirm(live, `, confirmed_by_message_id = '${simulated}'`)), 'GWM01');
  });

  it('a live hold sits in its card’s scope; a card cannot move without its live holds', async () => {
    const id = await insertLivePayment();
    const until = new Date(Date.now() + 3_600_000);
    await expectPgError(
      inTransaction(() => client.query(`insert into amount_holds (payment_id, scope, amount, held_until) values ($1, 'device:elsewhere', 100120, $2)`, [id, until])),
      'GWM01',
    );
    await client.query(`insert into amount_holds (payment_id, scope, amount, held_until) values ($1, $3, 100120, $2)`, [id, until, `device:${ids.device}`]);
    await expectPgError(inTransaction(() => client.query(`update cards set device_id = $2 where id = $1`, [ids.liveCard, ids.device2])), 'GWM01');
    await inTransaction(async () => {
      await client.query(`update cards set device_id = $2 where id = $1`, [ids.liveCard, ids.device2]);
      await client.query(`update amount_holds set scope = $2 where payment_id = $1`, [id, `device:${ids.device2}`]);
    });
    await client.query(`update amount_holds set released_at = now() where payment_id = $1`, [id]);
    await client.query(`update cards set device_id = $2 where id = $1`, [ids.liveCard, ids.device]);
  });
});
