import type { Tx } from '../../db/prisma.js';
import { lockPaymentRow, type LockScope } from './store/locks.js';
import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { chargeReleasedFee, debitReservedFee, releaseReservedFees } from '../credit/fees.js';
import { creditTopUpOnConfirm } from '../credit/topups.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';
import { recordEvent, recordReviewRequired } from './events.js';
import { checkTransition, confirmsLate, feeEffect, feeReleaseRefusal, TRANSITIONS, transitionFields, type FeeEffect, type TransitionName } from './state-machine.js';
import type { PaymentRow } from './types.js';

/**
 * A payment under its row lock, with the database's clock read once the lock was held. Every
 * money decision about it is taken at `lockedAt`: one clock (the database's) for every process,
 * and the same one the database's own guards use.
 */
export type LockedPayment = PaymentRow & { lockedAt: Date };

/**
 * Locks a payment row for the rest of the transaction. `scope` is the caller's: a payment outside
 * it is not found, exactly like one that does not exist.
 */
export async function lockPayment(tx: Tx, id: string, scope?: LockScope): Promise<LockedPayment> {
  const row = await lockPaymentRow(tx, id, scope);
  if (!row) throw AppError.notFound('Payment');
  const payment = await tx.payment.findUniqueOrThrow({ where: { id } });
  return { ...payment, lockedAt: row.now };
}

/**
 * The credit side of a transition (`feeEffect`), for one payment or a batch of payments under
 * the same effect: a debit becomes a ledger entry, a release goes back to available credit.
 */
export async function applyFeeEffect(tx: Tx, effect: FeeEffect, payments: PaymentRow[]): Promise<void> {
  switch (effect) {
    case 'debit':
      for (const p of payments) await debitReservedFee(tx, p);
      return;
    case 'charge_again':
      for (const p of payments) await chargeReleasedFee(tx, p);
      return;
    case 'release':
      await releaseReservedFees(tx, payments);
      return;
    case 'hold':
    case 'none':
      return;
  }
}

/**
 * Applies a transition to a locked payment: the fields the state machine computes for it (its
 * fee state included) over the caller's `fields`, the credit consequence, and the event row, all in
 * the caller's transaction. A pending payment confirmed past its deadline (the expiry sweep not
 * there yet) is expired first, as it would have been.
 */
export async function applyTransition(
  tx: Tx,
  jobs: JobQueue,
  payment: LockedPayment,
  name: TransitionName,
  fields: Prisma.PaymentUncheckedUpdateManyInput = {},
  received?: bigint,
): Promise<LockedPayment> {
  const now = payment.lockedAt;
  if (TRANSITIONS[name].to === 'confirmed' && confirmsLate(payment, now)) {
    payment = await applyTransition(tx, jobs, payment, 'expire');
  }
  checkTransition(payment, name, now);
  await applyFeeEffect(tx, feeEffect(name, payment, now), [payment]);
  const data: Prisma.PaymentUncheckedUpdateManyInput = { ...fields, ...transitionFields(name, payment, now, received) };
  // The status condition makes a lost lock impossible to miss: no row, no transition.
  const { count } = await tx.payment.updateMany({ where: { id: payment.id, status: payment.status }, data });
  if (count !== 1) throw new AppError('invalid_state', 'The payment changed concurrently; retry.', { status: payment.status });
  const updated = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
  // A fee-credit top-up credits its merchant in the transaction that confirms it, once.
  if (updated.status === 'confirmed') await creditTopUpOnConfirm(tx, updated);
  const recorded = await recordEvent(tx, jobs, TRANSITIONS[name].event, updated);
  await recordReviewRequired(tx, jobs, payment, updated);
  await notifyPaymentChanged(tx, updated, recorded.id);
  return { ...updated, lockedAt: now };
}

/** The end of an expired payment's late window: its reserved fee goes back, if the rules allow now. */
export async function releaseFeeIfDue(tx: Tx, payment: LockedPayment): Promise<boolean> {
  if (feeReleaseRefusal(payment, payment.lockedAt) !== null) return false;
  await applyFeeEffect(tx, 'release', [payment]);
  const { count } = await tx.payment.updateMany({ where: { id: payment.id, feeState: 'reserved' }, data: { feeState: 'released' } });
  if (count !== 1) throw new AppError('invalid_state', 'The payment changed concurrently; retry.', { status: payment.status });
  return true;
}
