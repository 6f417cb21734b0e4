import type { Tx } from '../../../db/prisma.js';

/**
 * The merchant's reserved credit (`credit_reserved`), moved by the database itself (one
 * `credit_reserved - x` UPDATE each), so concurrent confirmations and releases of one merchant add
 * up under its row lock instead of overwriting each other.
 */

/** A confirmed payment's reserved fee leaves the reservation (its ledger debit is written by the caller). */
export async function takeFeeFromReserved(tx: Tx, merchantId: string, fee: bigint): Promise<void> {
  await tx.$executeRaw`UPDATE merchants SET credit_reserved = credit_reserved - ${fee} WHERE id = ${merchantId}::uuid`;
}

/** Reserved fees given back to available credit: one UPDATE for the merchant's sum. */
export async function releaseReserved(tx: Tx, merchantId: string, amount: bigint): Promise<void> {
  await tx.$executeRaw`UPDATE merchants SET credit_reserved = credit_reserved - ${amount}, updated_at = now() WHERE id = ${merchantId}::uuid`;
}
