import { retryOnConflict } from '../../db/errors.js';
import { notifyPaymentsChanged } from '../../events/payment-notifier.js';
import type { Deps } from '../deps.js';
import { claimDuePending } from './store/locks.js';
import { expirePayment } from './expiry.js';
import { oneByOne } from './sweeps.js';
import { recordEvents, recordReviewRequired } from './events.js';
import { feeEffect, refusal, TRANSITIONS, transitionFields } from './state-machine.js';
import { applyFeeEffect } from './transitions.js';
import type { PaymentRow } from './types.js';

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * Expires up to `limit` payments past their deadline in one transaction: the expiry sweep's batch
 * (`claimDuePending` claims them, skipping rows another transaction holds). The same rules as
 * `expirePayment` (the state machine's `refusal`, `transitionFields` and `feeEffect` for `expire`,
 * the same event and webhook deliveries through `recordEvents`, the database's guards behind them),
 * in a few statements for the whole batch instead of a transaction each: a burst of deadlines (a
 * thousand in one second) is what it is for. Idempotent: a payment no longer pending is not claimed.
 */
export async function expireDueBatch(deps: Deps, limit: number): Promise<{ claimed: number; expired: number }> {
  return retryOnConflict(() =>
    deps.prisma.$transaction(async (tx) => {
      const locked = await claimDuePending(tx, limit);
      if (locked.length === 0) return { claimed: 0, expired: 0 };
      const now = locked.reduce((at, l) => (l.now > at ? l.now : at), locked[0]!.now);
      const rows = await tx.payment.findMany({ where: { id: { in: locked.map((l) => l.id) } } });
      const due = rows.filter((p) => refusal(p, 'expire', now) === null);
      if (due.length === 0) return { claimed: locked.length, expired: 0 };

      // The state machine's `expire` row for each payment, decided on the rows as they were, as
      // `applyTransition` decides; one UPDATE per distinct set of fields (a handful per batch).
      const planned = due.map((p) => ({ p, fields: transitionFields('expire', p, now), fee: feeEffect('expire', p, now) }));
      const updated: PaymentRow[] = [];
      for (const group of groupBy(planned, (x) => JSON.stringify(x.fields)).values()) {
        const where = { id: { in: group.map((x) => x.p.id) }, status: 'pending' };
        updated.push(...(await tx.payment.updateManyAndReturn({ where, data: group[0]!.fields })));
      }
      // The events in one statement (each payment's a few round trips, one after another, were most
      // of a batch's time: docs/BENCHMARKS.md "Growth"), then the attention events after them.
      const recorded = await recordEvents(tx, deps.jobs, TRANSITIONS.expire.event, updated);
      const eventIds = new Map([...recorded].map(([id, e]) => [id, e.id]));
      const before = new Map(rows.map((p) => [p.id, p]));
      for (const p of updated) await recordReviewRequired(tx, deps.jobs, before.get(p.id)!, p);
      const byFee = groupBy(planned.filter((x) => eventIds.has(x.p.id)), (x) => x.fee);
      for (const [effect, group] of byFee) await applyFeeEffect(tx, effect, group.map((x) => x.p));
      // Fees held (`hold`) go back when the late window ends: the late-window sweep (expiry.ts).
      await notifyPaymentsChanged(tx, updated.map((p) => ({ id: p.id, projectId: p.projectId, eventId: eventIds.get(p.id) ?? null })));
      return { claimed: locked.length, expired: updated.length };
    }),
  );
}

/**
 * Every pending payment past its deadline, in batches of `batch` (each one transaction), `lanes`
 * batches at a time, until a batch comes back short (nothing due is left that nobody holds) or
 * `limit` have been claimed: one tick of the expiry sweep (jobs/expire-due.ts), and its catch-up
 * after a restart. Lanes and worker processes split the due payments (`claimDuePending`). A batch
 * that fails is taken one payment at a time (`oneByOne`) and the tick ends there.
 */
export async function expireDuePayments(deps: Deps, opts: { limit?: number; lanes?: number; batch?: number } = {}): Promise<number> {
  const batch = opts.batch ?? 25;
  const limit = opts.limit ?? 10_000;
  let claimed = 0;
  let expired = 0;
  let drained = false;
  const lane = async () => {
    while (!drained && claimed < limit) {
      const n = Math.min(batch, limit - claimed);
      let done: { claimed: number; expired: number };
      try {
        done = await expireDueBatch(deps, n);
      } catch (err) {
        // One payment the batch cannot expire must not stop expiry for every other: one by one.
        const alone = await oneByOne(deps, 'expiry', n, err, (id) => expirePayment(deps, id));
        claimed += alone.tried;
        expired += alone.done;
        drained = true;
        return;
      }
      claimed += done.claimed;
      expired += done.expired;
      if (done.claimed < batch) drained = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.lanes ?? 1) }, lane));
  return expired;
}
