import type { Tx } from '../../../db/prisma.js';

/**
 * The merchant's credit stripes. Their rules are the database's: creates reserve through
 * `credit_reserve` (src/domain/credit/sql/credit_stripes.sql), and a payment's fee state moving on
 * moves its stripe (trigger function credit_stripes_follow_fee, same file).
 * What the code owes them is the lock order: the merchant's row before any stripe.
 */

/**
 * The merchant's row lock (FOR NO KEY UPDATE: a payment's foreign key check still passes), taken
 * before a fee state changes where nothing else (the ledger's UPDATE) takes it first.
 */
export async function lockMerchantCredit(tx: Tx, merchantId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM merchants WHERE id = ${merchantId}::uuid FOR NO KEY UPDATE`;
}
