import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Deps } from '../../src/domain/deps.js';

/**
 * A payment row inserted straight into the database, for tests of the database's own rules (guards,
 * checks, indexes): a sandbox payment of 100,000 + code 120, inside its late window, on `ids`'s card.
 */
export async function insertPaymentRow(
  client: pg.Client,
  ids: { merchant: string; project: string; card: string },
  overrides: Record<string, unknown> = {},
): Promise<string> {
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
    // A confirmed row says what it received (CHECK payments_received_iff_confirmed).
    ...(overrides.status === 'confirmed' ? { amount_received: overrides.amount_final ?? 100_120 } : {}),
    ...overrides,
  };
  const cols = Object.keys(row);
  await client.query(`INSERT INTO payments (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
  return row.id;
}

/** A merchant with a sandbox project and one Mellat card on no phone, inserted straight into the database. */
export async function insertSandboxShop(client: pg.Client): Promise<{ merchant: string; project: string; card: string }> {
  const m = await client.query(`INSERT INTO merchants (name) VALUES ('M') RETURNING id`);
  const p = await client.query(`INSERT INTO projects (merchant_id, name, sandbox) VALUES ($1, 'P', true) RETURNING id`, [m.rows[0].id]);
  const c = await client.query(
    `INSERT INTO cards (project_id, merchant_id, bank_code, card_number, holder_name) VALUES ($1, $2, 'mellat', '6104337812345678', 'H') RETURNING id`,
    [p.rows[0].id, m.rows[0].id],
  );
  return { merchant: m.rows[0].id, project: p.rows[0].id, card: c.rows[0].id };
}

/**
 * Holds a payment's row lock in a transaction of its own (as a confirmation in progress would)
 * until the returned function is called; resolves once the lock is held.
 */
export async function holdPaymentRow(prisma: Deps['prisma'], id: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const holder = prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM payments WHERE id = ${id}::uuid FOR UPDATE`;
    locked();
    await held;
  });
  await Promise.race([isLocked, holder]);
  return async () => {
    release();
    await holder;
  };
}

/**
 * The plan PostgreSQL would choose for `sql` with sequential scans off (a small test table would
 * otherwise be scanned whole whatever the indexes): what a test reads to see an index used.
 */
export async function planWithoutSeqScan(client: pg.Client, sql: string, params: unknown[]): Promise<string> {
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL enable_seqscan = off');
    const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query('ROLLBACK');
  }
}
