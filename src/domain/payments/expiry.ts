import type { Deps } from '../deps.js';
import { releaseReservedFee } from '../credit/fees.js';
import { applyTransition, lockPayment } from './transitions.js';
import { refusal } from './state-machine.js';

/**
 * Expires one payment if it is still pending past its deadline (a no-op otherwise, so the job and
 * the sweep may both run it). A payer who reported paying but whose deposit never came is flagged
 * for review. The fee stays reserved until the late window ends.
 */
export async function expirePayment(deps: Deps, paymentId: string): Promise<boolean> {
  const expired = await deps.prisma.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId).catch(() => null);
    if (payment?.status === 'pending' && payment.expiresAt.getTime() > Date.now()) {
      // Early (the job was timed from before the creating transaction's lock wait, or clocks differ):
      // come back at the deadline rather than leave it to the sweep.
      await deps.jobs.send('expire-payment', { paymentId }, { tx, startAfter: payment.expiresAt });
      return null;
    }
    if (!payment || refusal(payment, 'expire', new Date())) return null;
    const reported = payment.payerReportedPaidAt !== null;
    const updated = await applyTransition(
      tx,
      deps.jobs,
      payment,
      'expire',
      reported && !payment.reviewRequired ? { reviewRequired: true, reviewReason: 'payer_reported_no_deposit' } : {},
    );
    if (!updated.sandbox && updated.feeState === 'reserved') {
      await deps.jobs.send('end-late-window', { paymentId }, { tx, startAfter: updated.lateUntil });
    }
    return updated;
  });
  return expired !== null;
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

/** The late window is over and the payment was never confirmed: its reserved fee goes back. */
export async function endLateWindow(deps: Deps, paymentId: string): Promise<boolean> {
  return deps.prisma.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId).catch(() => null);
    if (!payment || payment.status === 'confirmed' || payment.feeState !== 'reserved') return false;
    if (payment.lateUntil.getTime() > Date.now()) return false;
    await releaseReservedFee(tx, payment);
    await tx.payment.update({ where: { id: payment.id }, data: { feeState: 'released' } });
    return true;
  });
}

export async function endOverdueLateWindows(deps: Deps, limit = 500): Promise<number> {
  const due = await deps.prisma.payment.findMany({
    where: { feeState: 'reserved', status: { not: 'confirmed' }, lateUntil: { lte: new Date() } },
    select: { id: true },
    take: limit,
  });
  let count = 0;
  for (const { id } of due) if (await endLateWindow(deps, id)) count++;
  return count;
}
