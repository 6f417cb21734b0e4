import type { Tx } from '../../../db/prisma.js';
import type { Queryable } from '../../../db/statement.js';

/** A top-up's row, in the create's transaction (the payment row was just inserted there). */
export async function insertTopUp(db: Queryable, paymentId: string, merchantId: string, amount: bigint): Promise<void> {
  await db.query('INSERT INTO credit_topups (payment_id, merchant_id, amount) VALUES ($1, $2, $3)', [paymentId, merchantId, amount.toString()]);
}

/** The merchant a payment tops up while not yet credited, its row locked until commit; undefined otherwise. */
export async function lockUncreditedTopUp(tx: Tx, paymentId: string): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ merchant_id: string }[]>`SELECT merchant_id FROM credit_topups WHERE payment_id = ${paymentId}::uuid AND credited_at IS NULL FOR UPDATE`;
  return row?.merchant_id;
}
