import type { Tx } from '../../db/prisma.js';

export type LedgerKind = 'topup' | 'fee' | 'adjustment';

/**
 * Appends a ledger entry and moves the merchant's balance with it. The UPDATE takes the
 * merchant's row lock, so concurrent entries serialise and `balanceAfter` is exact.
 */
export async function recordLedgerEntry(
  tx: Tx,
  entry: { merchantId: string; kind: LedgerKind; amount: bigint; paymentId?: string | null; note?: string | null },
) {
  const merchant = await tx.merchant.update({
    where: { id: entry.merchantId },
    data: { creditBalance: { increment: entry.amount } },
  });
  return tx.creditLedgerEntry.create({
    data: {
      merchantId: entry.merchantId,
      kind: entry.kind,
      amount: entry.amount,
      balanceAfter: merchant.creditBalance,
      paymentId: entry.paymentId ?? null,
      note: entry.note ?? null,
    },
  });
}
