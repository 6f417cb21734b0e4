import type { Tx } from '../../db/prisma.js';
import type { Deps } from '../deps.js';
import { applyTransition, lockPayment, releaseFeeIfDue, type LockedPayment } from './transitions.js';
import { refusal } from './state-machine.js';

/**
 * Expires one payment if it is still pending past its deadline (a no-op otherwise, so the job and
 * the sweep may both run it, and a job may run twice). A payer who reported paying but whose
 * deposit never came is flagged for review. The fee stays reserved until the late window ends;
 * with no late window it goes back at once.
 */
export async function expirePayment(deps: Deps, paymentId: string): Promise<boolean> {
  const expired = await deps.prisma.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId).catch(() => null);
    if (!payment) return null;
    if (payment.status === 'pending' && payment.expiresAt.getTime() > payment.lockedAt.getTime()) {
      // Early (the job was timed from before the creating transaction's lock wait, or clocks differ):
      // come back at the deadline rather than leave it to the sweep.
      await deps.jobs.send('expire-payment', { paymentId }, { tx, startAfter: payment.expiresAt });
      return null;
    }
    if (refusal(payment, 'expire', payment.lockedAt)) return null;
    const updated = await expireLocked(tx, deps, payment);
    if (!(await releaseFeeIfDue(tx, updated)) && updated.feeState === 'reserved') {
      await deps.jobs.send('end-late-window', { paymentId }, { tx, startAfter: updated.lateUntil });
    }
    return updated;
  });
  return expired !== null;
}

/** A payer who reported paying but whose deposit never came is flagged for the merchant's review. */
function expireLocked(tx: Tx, deps: Deps, payment: LockedPayment) {
  const reported = payment.payerReportedPaidAt !== null && !payment.reviewRequired;
  return applyTransition(tx, deps.jobs, payment, 'expire', reported ? { reviewRequired: true, reviewReason: 'payer_reported_no_deposit' } : {});
}

/** Safety net for lost or delayed jobs: every pending payment past its deadline. */
export async function expireOverduePayments(deps: Deps, limit = 500): Promise<number> {
  const overdue = await deps.prisma.payment.findMany({
    where: { status: 'pending', expiresAt: { lte: new Date() } },
    select: { id: true },
    orderBy: { expiresAt: 'asc' },
    take: limit,
  });
  let count = 0;
  for (const { id } of overdue) if (await expirePayment(deps, id)) count++;
  return count;
}

/**
 * The late window is over and the payment was never confirmed: its reserved fee goes back. A
 * payment still pending (its expiry lagging) is expired first; a confirmed one keeps its debit.
 * Idempotent: a second run finds the fee no longer reserved.
 */
export async function endLateWindow(deps: Deps, paymentId: string): Promise<boolean> {
  return deps.prisma.$transaction(async (tx) => {
    let payment = await lockPayment(tx, paymentId).catch(() => null);
    if (!payment) return false;
    if (refusal(payment, 'expire', payment.lockedAt) === null) payment = await expireLocked(tx, deps, payment);
    return releaseFeeIfDue(tx, payment);
  });
}

export async function endOverdueLateWindows(deps: Deps, limit = 500): Promise<number> {
  const due = await deps.prisma.payment.findMany({
    where: { feeState: 'reserved', status: { in: ['pending', 'expired'] }, lateUntil: { lt: new Date() } },
    select: { id: true },
    take: limit,
  });
  let count = 0;
  for (const { id } of due) if (await endLateWindow(deps, id)) count++;
  return count;
}
