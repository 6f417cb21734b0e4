import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import { recordLedgerEntry } from './ledger.js';

/** `clamp(floor(amountFinal × bps / 10,000), min, max)` in rials. */
export function computeFee(amountFinal: bigint, project: { feeBps: number; feeMin: bigint; feeMax: bigint }): bigint {
  const raw = (amountFinal * BigInt(project.feeBps)) / 10_000n;
  if (raw < project.feeMin) return project.feeMin;
  if (raw > project.feeMax) return project.feeMax;
  return raw;
}

/** A merchant's available credit (balance − reserved), read without locking, for the early 402. */
export async function availableCredit(tx: Tx, merchantId: string): Promise<bigint> {
  const m = await tx.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { creditBalance: true, creditReserved: true } });
  return m.creditBalance - m.creditReserved;
}

/**
 * Reserves a live payment's fee. The condition is checked on the locked merchant row, so concurrent
 * creates can never reserve more than the balance.
 */
export async function reserveFee(tx: Tx, merchantId: string, fee: bigint): Promise<void> {
  const updated = await tx.$executeRaw`
    UPDATE merchants SET credit_reserved = credit_reserved + ${fee}, updated_at = now()
    WHERE id = ${merchantId}::uuid AND credit_balance - credit_reserved >= ${fee}`;
  if (updated === 0) throw new AppError('merchant_credit_exhausted');
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
  if (payment.sandbox || payment.feeState !== 'reserved') throw new Error(`payment ${payment.id}: fee ${payment.feeState}, cannot be released`);
  await tx.$executeRaw`UPDATE merchants SET credit_reserved = credit_reserved - ${payment.feeAmount} WHERE id = ${payment.merchantId}::uuid`;
}
