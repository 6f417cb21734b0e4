import { retryOnConflict } from '../../db/errors.js';
import { notifyPaymentsChanged } from '../../events/payment-notifier.js';
import type { Deps } from '../deps.js';
import { lockPendingSkippingBusy } from './store/locks.js';
import { recordEvent, recordReviewRequired } from './events.js';
import { expirePayment, releaseFeeAtLateWindowEnd } from './expiry.js';
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
 * Expires a batch of payments in one transaction: the same rules as `expirePayment` (the state
 * machine's `refusal`, `transitionFields` and `feeEffect` for `expire`, the same event and webhook
 * deliveries through `recordEvent`, the database's guards behind them), in a few statements for the whole batch
 * instead of a transaction each. A burst of deadlines (a thousand in one second) is what it is
 * for. Payments another transaction holds, and payments not yet due, are handed to `expirePayment`
 * afterwards (it waits for the lock, or re-schedules the job at the deadline). Idempotent.
 */
export async function expireBatch(deps: Deps, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { expired, early } = await retryOnConflict(() =>
    deps.prisma.$transaction(async (tx) => {
      // The outer SELECT runs once the CTE holds the locks: its clock is read after any wait.
      // Pending rows another transaction holds are not waited for here: they go through
      // `expirePayment` afterwards, which does wait, so none is left to the minute sweep.
      const found = await lockPendingSkippingBusy(tx, ids);
      const busy = found.filter((f) => f.now === null).map((f) => f.id);
      const locked = found.filter((f): f is { id: string; now: Date } => f.now !== null);
      if (locked.length === 0) return { expired: 0, early: busy };
      const now = locked.reduce((at, l) => (l.now > at ? l.now : at), locked[0]!.now);
      const rows = await tx.payment.findMany({ where: { id: { in: locked.map((l) => l.id) } } });
      const due = rows.filter((p) => refusal(p, 'expire', now) === null);
      const early = [...busy, ...rows.filter((p) => p.status === 'pending' && p.expiresAt > now).map((p) => p.id)];
      if (due.length === 0) return { expired: 0, early };

      // The state machine's `expire` row for each payment, decided on the rows as they were, as
      // `applyTransition` decides; one UPDATE per distinct set of fields (a handful per batch).
      const planned = due.map((p) => ({ p, fields: transitionFields('expire', p, now), fee: feeEffect('expire', p, now) }));
      const updated: PaymentRow[] = [];
      for (const group of groupBy(planned, (x) => JSON.stringify(x.fields)).values()) {
        const where = { id: { in: group.map((x) => x.p.id) }, status: 'pending' };
        updated.push(...(await tx.payment.updateManyAndReturn({ where, data: group[0]!.fields })));
      }
      const eventIds = new Map<string, string>();
      const before = new Map(rows.map((p) => [p.id, p]));
      for (const p of updated) {
        eventIds.set(p.id, (await recordEvent(tx, deps.jobs, TRANSITIONS.expire.event, p)).id);
        await recordReviewRequired(tx, deps.jobs, before.get(p.id)!, p);
      }
      const byFee = groupBy(planned.filter((x) => eventIds.has(x.p.id)), (x) => x.fee);
      for (const [effect, group] of byFee) await applyFeeEffect(tx, effect, group.map((x) => x.p));
      await releaseFeeAtLateWindowEnd(tx, deps.jobs, (byFee.get('hold') ?? []).map((x) => x.p));
      await notifyPaymentsChanged(tx, updated.map((p) => ({ id: p.id, projectId: p.projectId, eventId: eventIds.get(p.id) ?? null })));
      return { expired: updated.length, early };
    }),
  );
  for (const id of early) await expirePayment(deps, id);
  return expired;
}

/**
 * Every pending payment past its deadline, in batches of `batch` (each one transaction), `lanes`
 * batches at a time: the sweep's catch-up after a restart or a lost queue.
 */
export async function expireDuePayments(deps: Deps, opts: { limit?: number; concurrency?: number; batch?: number } = {}): Promise<number> {
  const due = await deps.prisma.payment.findMany({
    where: { status: 'pending', expiresAt: { lte: new Date() } },
    select: { id: true },
    orderBy: { expiresAt: 'asc' },
    take: opts.limit ?? 2_000,
  });
  const size = opts.batch ?? 25;
  const batches: string[][] = [];
  for (let i = 0; i < due.length; i += size) batches.push(due.slice(i, i + size).map((d) => d.id));
  let next = 0;
  let expired = 0;
  const lane = async () => {
    while (next < batches.length) expired += await expireBatch(deps, batches[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(4, Math.ceil((opts.concurrency ?? 8) / 8))) }, lane));
  return expired;
}
