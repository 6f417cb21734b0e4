import { retryOnConflict } from '../../db/errors.js';
import { notifyPaymentsChanged } from '../../events/payment-notifier.js';
import { releaseReservedFees } from '../credit/fees.js';
import type { Deps } from '../deps.js';
import { recordEvent } from './events.js';
import { expirePayment } from './expiry.js';
import { feeReleaseRefusal, refusal } from './state-machine.js';

/**
 * Expires a batch of payments in one transaction: the same rules as `expirePayment` (the state
 * machine's `refusal` and `feeReleaseRefusal`, the same event and webhook deliveries through
 * `recordEvent`, the database's guards behind them), in a few statements for the whole batch
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
      const found = await tx.$queryRaw<{ id: string; now: Date | null }[]>`
        WITH due AS (SELECT id FROM payments WHERE id = ANY(${ids}::uuid[]) AND status = 'pending' ORDER BY id FOR UPDATE SKIP LOCKED)
        SELECT id, clock_timestamp() AS now FROM due
        UNION ALL
        SELECT id, NULL FROM payments WHERE id = ANY(${ids}::uuid[]) AND status = 'pending' AND id NOT IN (SELECT id FROM due)`;
      const busy = found.filter((f) => f.now === null).map((f) => f.id);
      const locked = found.filter((f): f is { id: string; now: Date } => f.now !== null);
      if (locked.length === 0) return { expired: 0, early: busy };
      const now = locked.reduce((at, l) => (l.now > at ? l.now : at), locked[0]!.now);
      const rows = await tx.payment.findMany({ where: { id: { in: locked.map((l) => l.id) } } });
      const due = rows.filter((p) => refusal(p, 'expire', now) === null);
      const early = [...busy, ...rows.filter((p) => p.status === 'pending' && p.expiresAt > now).map((p) => p.id)];
      if (due.length === 0) return { expired: 0, early };

      // A payer who reported paying but whose deposit never came is flagged for review.
      const reported = due.filter((p) => p.payerReportedPaidAt !== null && !p.reviewRequired).map((p) => p.id);
      const others = due.filter((p) => !reported.includes(p.id)).map((p) => p.id);
      const updated = [
        ...(reported.length
          ? await tx.payment.updateManyAndReturn({
              where: { id: { in: reported }, status: 'pending' },
              data: { status: 'expired', expiredAt: now, reviewRequired: true, reviewReason: 'payer_reported_no_deposit' },
            })
          : []),
        ...(others.length ? await tx.payment.updateManyAndReturn({ where: { id: { in: others }, status: 'pending' }, data: { status: 'expired', expiredAt: now } }) : []),
      ];
      const eventIds = new Map<string, string>();
      for (const p of updated) eventIds.set(p.id, (await recordEvent(tx, deps.jobs, 'payment.expired', p)).id);

      // With no late window left the fee goes back now; otherwise at the window's end.
      const releasable = updated.filter((p) => feeReleaseRefusal(p, now) === null);
      if (releasable.length) {
        await releaseReservedFees(tx, releasable);
        await tx.payment.updateMany({ where: { id: { in: releasable.map((p) => p.id) }, feeState: 'reserved' }, data: { feeState: 'released' } });
      }
      for (const p of updated) {
        if (!p.sandbox && p.feeState === 'reserved' && !releasable.includes(p)) {
          await deps.jobs.send('end-late-window', { paymentId: p.id }, { tx, startAfter: p.lateUntil });
        }
      }
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
