import type { Tx } from '../../db/prisma.js';
import { recordLedgerEntry } from './ledger.js';

/**
 * `clamp(floor(amountFinal × bps / 10,000), min, max)` in rials. Creation reserves it inside the
 * `create_payment` SQL function, whose `payment_fee` states the same rule (a test holds them equal).
 */
export function computeFee(amountFinal: bigint, project: { feeBps: number; feeMin: bigint; feeMax: bigint }): bigint {
  const raw = (amountFinal * BigInt(project.feeBps)) / 10_000n;
  if (raw < project.feeMin) return project.feeMin;
  if (raw > project.feeMax) return project.feeMax;
  return raw;
}

type FeeHolder = { id: string; merchantId: string; sandbox: boolean; feeAmount: bigint; feeState: string };

/**
 * Confirmation turns the reservation into a ledger debit; it never fails for want of credit. A live
 * payment reaches here only with its fee reserved (the state machine refuses otherwise).
 */
export async function debitReservedFee(tx: Tx, payment: FeeHolder): Promise<void> {
  if (payment.sandbox) return;
  if (payment.feeState !== 'reserved') throw new Error(`payment ${payment.id}: fee ${payment.feeState}, cannot be debited`);
  await tx.$executeRaw`UPDATE merchants SET credit_reserved = credit_reserved - ${payment.feeAmount} WHERE id = ${payment.merchantId}::uuid`;
  if (payment.feeAmount > 0n) {
    await recordLedgerEntry(tx, { merchantId: payment.merchantId, kind: 'fee', amount: -payment.feeAmount, paymentId: payment.id, note: 'payment fee' });
  }
}

/**
 * Cancel, reject or the end of the late window gives the reserved fee back to available credit;
 * the caller has checked `feeReleaseRefusal`.
 */
export async function releaseReservedFee(tx: Tx, payment: FeeHolder): Promise<void> {
  await releaseReservedFees(tx, [payment]);
}

/** The same for many payments (a batch of expiries): one UPDATE per merchant. */
export async function releaseReservedFees(tx: Tx, payments: FeeHolder[]): Promise<void> {
  const byMerchant = new Map<string, bigint>();
  for (const p of payments) {
    if (p.sandbox || p.feeState !== 'reserved') throw new Error(`payment ${p.id}: fee ${p.feeState}, cannot be released`);
    byMerchant.set(p.merchantId, (byMerchant.get(p.merchantId) ?? 0n) + p.feeAmount);
  }
  for (const [merchantId, amount] of byMerchant) {
    await tx.$executeRaw`UPDATE merchants SET credit_reserved = credit_reserved - ${amount}, updated_at = now() WHERE id = ${merchantId}::uuid`;
  }
}
