import { decisionTransaction, type Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import type { Deps } from '../deps.js';
import { claimLateWindowsOver } from './store/locks.js';
import { oneByOne } from './sweeps.js';
import { applyTransition, lockPayment, releaseFeeIfDue } from './transitions.js';
import { feeEffect, refusal } from './state-machine.js';
import type { LockedPayment } from './transitions.js';

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
    // A fee it holds (`feeEffect` `hold`) goes back when the late window ends: the late-window sweep.
    return applyTransition(tx, deps.jobs, payment, 'expire');
  });
  return expired !== null;
}

/**
 * The late window is over and the payment was never confirmed: its reserved fee goes back. A
 * payment still pending (its expiry lagging) is expired first, which gives the fee back with it; a
 * confirmed one keeps its debit. `payment` is locked by the caller's transaction. Idempotent: a
 * second run finds the fee no longer reserved.
 */
async function endLateWindow(tx: Tx, jobs: JobQueue, payment: LockedPayment): Promise<boolean> {
  if (refusal(payment, 'expire', payment.lockedAt) !== null) return releaseFeeIfDue(tx, payment);
  const released = feeEffect('expire', payment, payment.lockedAt) === 'release';
  await applyTransition(tx, jobs, payment, 'expire');
  return released;
}

/**
 * Up to `limit` live fees still reserved past their late window, given back in one transaction
 * (`claimLateWindowsOver` claims them, skipping rows another transaction holds): the late-window
 * sweep's batch. Returns how many were claimed and how many fees went back.
 */
export async function endLateWindowsBatch(deps: Deps, limit: number): Promise<{ claimed: number; released: number }> {
  return decisionTransaction(deps.prisma, async (tx) => {
    // Held since the claim: the rows are read once, and each is decided at the claim's clock, in the
    // claim's (merchant) order.
    const claimed = await claimLateWindowsOver(tx, limit);
    const rows = new Map((await tx.payment.findMany({ where: { id: { in: claimed.map((c) => c.id) } } })).map((p) => [p.id, p]));
    let released = 0;
    for (const { id, now } of claimed) if (await endLateWindow(tx, deps.jobs, { ...rows.get(id)!, lockedAt: now })) released++;
    return { claimed: claimed.length, released };
  });
}

/**
 * Every live fee still reserved past its late window, in batches of `batch` (one transaction each),
 * until a batch comes back short or `limit` have been claimed: one tick of the late-window sweep
 * (jobs/end-late-windows.ts, every worker process), and the minute sweep behind it. Nothing is
 * enqueued per payment: the deadline is the row's `late_until`, so a lost queue cannot keep a fee
 * reserved. A batch that fails is taken one payment at a time (`oneByOne`), so one payment that
 * cannot be settled does not hold the others back. Returns how many fees went back.
 */
export async function endOverdueLateWindows(deps: Deps, opts: { batch?: number; limit?: number } = {}): Promise<number> {
  const batch = opts.batch ?? 50;
  const limit = opts.limit ?? 5_000;
  let claimed = 0;
  let released = 0;
  for (;;) {
    const n = Math.min(batch, limit - claimed);
    let done: { claimed: number; released: number };
    try {
      done = await endLateWindowsBatch(deps, n);
    } catch (err) {
      const alone = await oneByOne(deps, 'late-window', n, err, (id) =>
        decisionTransaction(deps.prisma, async (tx) => endLateWindow(tx, deps.jobs, await lockPayment(tx, id))),
      );
      return released + alone.done;
    }
    claimed += done.claimed;
    released += done.released;
    if (done.claimed < batch || claimed >= limit) return released;
  }
}
