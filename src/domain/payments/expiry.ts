import { decisionTransaction, type Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import type { Deps } from '../deps.js';
import { applyTransition, lockPayment, releaseFeeIfDue } from './transitions.js';
import { feeEffect, refusal } from './state-machine.js';
import type { PaymentRow } from './types.js';

/**
 * Expires one payment if it is still pending past its deadline (a no-op otherwise, so the sweep and
 * a caller may both run it). What the expiry sets, its fee effect and its event are the state
 * machine's `expire` row, as in `expireDueBatch`, which is how the worker expires payments; this is
 * the one-payment form (the demo's activity, tests).
 */
export async function expirePayment(deps: Deps, paymentId: string): Promise<boolean> {
  const expired = await decisionTransaction(deps.prisma, async (tx) => {
    const payment = await lockPayment(tx, paymentId).catch(() => null);
    if (!payment) return null;
    // Not yet due (refused below): the expiry sweep comes back for it once it is.
    if (refusal(payment, 'expire', payment.lockedAt)) return null;
    const held = feeEffect('expire', payment, payment.lockedAt) === 'hold';
    const updated = await applyTransition(tx, deps.jobs, payment, 'expire');
    if (held) await releaseFeeAtLateWindowEnd(tx, deps.jobs, [updated]);
    return updated;
  });
  return expired !== null;
}

/** A fee an expiry held (`feeEffect` `hold`) goes back when the late window ends: the job, or the sweep after it. */
export async function releaseFeeAtLateWindowEnd(tx: Tx, jobs: JobQueue, payments: PaymentRow[]): Promise<void> {
  for (const p of payments) await jobs.send('end-late-window', { paymentId: p.id }, { tx, startAfter: p.lateUntil });
}

/**
 * The late window is over and the payment was never confirmed: its reserved fee goes back. A
 * payment still pending (its expiry lagging) is expired first, which gives the fee back with it; a
 * confirmed one keeps its debit. Idempotent: a second run finds the fee no longer reserved.
 */
export async function endLateWindow(deps: Deps, paymentId: string): Promise<boolean> {
  return decisionTransaction(deps.prisma, async (tx) => {
    const payment = await lockPayment(tx, paymentId).catch(() => null);
    if (!payment) return false;
    if (refusal(payment, 'expire', payment.lockedAt) !== null) return releaseFeeIfDue(tx, payment);
    const released = feeEffect('expire', payment, payment.lockedAt) === 'release';
    await applyTransition(tx, deps.jobs, payment, 'expire');
    return released;
  });
}

/** The sweep's half for fees: every live fee still reserved past its late window. */
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
