import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSITIONS } from '../../src/domain/payments/state-machine.js';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../src/domain/payments/types.js';
import { insertPaymentRow, insertSandboxShop } from '../support/db-rows.js';
import { createTestDatabase } from '../support/harness.js';

// The state machine's transition table and the database's `payments_guard` trigger state the same
// status moves twice; this holds them equal, whichever side changes.

let client: pg.Client;
let ids: { merchant: string; project: string; card: string };
/** A simulated deposit the merchant attaches: the only way a canceled payment is confirmed. */
let deposit: string;

/** The columns a payment in `status` carries, so that only the guard can refuse a move between two statuses. */
function statusColumns(status: PaymentStatus) {
  const at = (s: PaymentStatus) => (s === status ? new Date() : null);
  return {
    status,
    confirmed_at: at('confirmed'),
    confirmation_source: status === 'confirmed' ? 'manual' : null,
    confirmed_by_message_id: status === 'confirmed' ? deposit : null,
    amount_received: status === 'confirmed' ? 100_000 : null,
    expired_at: at('expired'),
    canceled_at: at('canceled'),
    rejected_at: at('rejected'),
    reject_reason: status === 'rejected' ? 'never paid' : null,
  };
}

/** A sandbox payment (no fee, inside its late window) in `status`, inserted as such: the guard watches updates only. */
const insertPayment = (status: PaymentStatus) => insertPaymentRow(client, ids, statusColumns(status));

/** Whether the database lets a payment move from `from` to `to`; a refusal other than the guard's fails the test. */
async function accepts(from: PaymentStatus, to: PaymentStatus): Promise<boolean> {
  await client.query('BEGIN');
  try {
    const id = await insertPayment(from);
    const set = Object.entries(statusColumns(to));
    await client.query(`UPDATE payments SET ${set.map(([col], i) => `${col} = $${i + 2}`).join(', ')} WHERE id = $1`, [id, ...set.map(([, v]) => v)]);
    return true;
  } catch (err) {
    const { code, message } = err as { code?: string; message: string };
    if (code === 'GWM01' && message.includes(`status ${from} cannot become ${to}`)) return false;
    throw err;
  } finally {
    await client.query('ROLLBACK');
  }
}

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  ids = await insertSandboxShop(client);
  const m = await client.query(
    `INSERT INTO bank_messages (merchant_id, project_id, simulated, sender, body, body_sha256, received_at, status, direction, amount)
     VALUES ($1, $2, true, 'sandbox', 'simulated deposit', 'x', now(), 'unmatched', 'deposit', 100000) RETURNING id`,
    [ids.merchant, ids.project],
  );
  deposit = m.rows[0].id;
});
afterAll(() => client.end());

describe('the database guard and the transition table', () => {
  it('allow exactly the same status moves', async () => {
    // Given the guard switched on, as every migrated database has it
    const trigger = await client.query(`SELECT tgenabled FROM pg_trigger WHERE tgname = 'payments_guard' AND tgrelid = 'payments'::regclass`);
    expect(trigger.rows).toEqual([{ tgenabled: 'O' }]);

    // When every move between two different statuses is tried on a real row
    const accepted: string[] = [];
    for (const from of PAYMENT_STATUSES) {
      for (const to of PAYMENT_STATUSES) {
        if (from !== to && (await accepts(from, to))) accepted.push(`${from} → ${to}`);
      }
    }

    // Then the database accepts the moves the table allows, and no other
    const allowed = [...new Set(Object.values(TRANSITIONS).flatMap((t) => t.from.map((from) => `${from} → ${t.to}`)))];
    expect(accepted.sort()).toEqual(allowed.sort());
  });
});
