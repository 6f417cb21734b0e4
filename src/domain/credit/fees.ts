import type { Tx } from '../../db/prisma.js';
import { recordLedgerEntry } from './ledger.js';
import { lockMerchantCredit } from './store/stripes.js';

// The fee's amount is set once, at creation, by `payment_fee` (src/domain/credit/sql/payment_fee.sql);
// what follows moves that stored amount. The reservation sits on one of the merchant's credit
// stripes, which follow the payment's fee state in the database (trigger credit_stripes_follow_fee):
// here, the ledger and the merchant's row lock, taken before the caller changes the fee state, so
// the trigger's stripe lock comes after it (the lock order of src/domain/credit/sql/credit_stripes.sql).

type FeeHolder = { id: string; merchantId: string; sandbox: boolean; feeAmount: bigint; feeState: string };

/**
 * Confirmation turns the reservation into a ledger debit; it never fails for want of credit. A live
 * payment reaches here only with its fee reserved (the state machine refuses otherwise).
 */
export async function debitReservedFee(tx: Tx, payment: FeeHolder): Promise<void> {
  if (payment.sandbox) return;
  if (payment.feeState !== 'reserved') throw new Error(`payment ${payment.id}: fee ${payment.feeState}, cannot be debited`);
  if (payment.feeAmount > 0n) {
    await recordLedgerEntry(tx, { merchantId: payment.merchantId, kind: 'fee', amount: -payment.feeAmount, paymentId: payment.id, note: 'payment fee' });
  }
}

/**
 * A merchant's exception (attach, late confirmation) confirms a payment whose fee had been released
 * (canceled, or past its late window): the fee is reserved again and debited at once, so
 * no stripe's reservation moves and the ledger gets its one debit. It never fails for want of
 * credit: available credit may go below zero, and then live creates answer 402 (the balance fell by
 * what no lease had lent, so the stripes' trigger takes every free lease back).
 */
export async function chargeReleasedFee(tx: Tx, payment: FeeHolder): Promise<void> {
  if (payment.sandbox) return;
  if (payment.feeState !== 'released') throw new Error(`payment ${payment.id}: fee ${payment.feeState}, cannot be charged again`);
  if (payment.feeAmount > 0n) {
    await recordLedgerEntry(tx, { merchantId: payment.merchantId, kind: 'fee', amount: -payment.feeAmount, paymentId: payment.id, note: 'payment fee (charged again on a late confirmation)' });
  }
}

/**
 * Cancel, reject or the end of the late window gives the reserved fee back to available credit,
 * for one payment or a batch of expiries: the stripes give it back when the caller moves the fee
 * states; here, each merchant's row lock first. The caller has checked `feeReleaseRefusal`.
 */
export async function releaseReservedFees(tx: Tx, payments: FeeHolder[]): Promise<void> {
  const merchants = new Set<string>();
  for (const p of payments) {
    if (p.sandbox || p.feeState !== 'reserved') throw new Error(`payment ${p.id}: fee ${p.feeState}, cannot be released`);
    merchants.add(p.merchantId);
  }
  // Merchants in one order (by id) in every transaction that releases for several, so two such
  // transactions never wait on each other's merchant rows in a cycle.
  for (const merchantId of [...merchants].sort()) await lockMerchantCredit(tx, merchantId);
}
