import type pg from 'pg';
import type { Tx } from '../../../db/prisma.js';

/**
 * Row locks on payments, each with the database's clock read once the lock is held: every money
 * decision about a payment is taken at that instant (one clock for every process, the one the
 * database's own guards use).
 */

/** Who may lock it: a merchant, optionally one of its projects. */
export type LockScope = { merchantId: string; projectId: string | null; none?: boolean };

/** Locks one payment (inside the caller's scope, when given) until commit; null when there is none. */
export async function lockPaymentRow(tx: Tx, id: string, scope?: LockScope): Promise<{ id: string; now: Date } | null> {
  if (scope?.none) return null;
  const merchantId = scope?.merchantId ?? null;
  const projectId = scope?.projectId ?? null;
  // The outer SELECT runs after the CTE has the lock, so its clock is read after any wait for it.
  const rows = await tx.$queryRaw<{ id: string; now: Date }[]>`
    WITH locked AS (
      SELECT id FROM payments
      WHERE id = ${id}::uuid
        AND (${merchantId}::uuid IS NULL OR merchant_id = ${merchantId}::uuid)
        AND (${projectId}::uuid IS NULL OR project_id = ${projectId}::uuid)
      FOR UPDATE)
    SELECT id, clock_timestamp() AS now FROM locked`;
  return rows[0] ?? null;
}

/**
 * Claims up to `limit` pending payments past their deadline that no other transaction holds, the
 * earliest deadline first, with the clock read once they are held: the expiry sweep's batch. Rows
 * another transaction holds (a confirmation in progress) are skipped, not waited for: that
 * transaction decides them, or the next sweep does. Several sweeps (lanes, worker processes) thus
 * split the due payments between them instead of queueing on the same rows. Read through
 * payments_pending_expiry_idx: `statement_timestamp()` is stable, so it bounds the index scan
 * (`clock_timestamp()`, volatile, would not).
 */
export async function claimDuePending(tx: Tx, limit: number): Promise<{ id: string; now: Date }[]> {
  return tx.$queryRawUnsafe<{ id: string; now: Date }[]>(CLAIM_DUE_PENDING, limit);
}

/** Pending past its deadline: what the expiry sweep claims. */
const DUE_PENDING = `status = 'pending' AND expires_at <= statement_timestamp()`;

/** `claimDuePending`'s statement ($1: how many), exported for the test that reads its plan. */
export const CLAIM_DUE_PENDING = `
    WITH due AS (
      SELECT id FROM payments
      WHERE ${DUE_PENDING}
      ORDER BY expires_at
      LIMIT $1::int
      FOR UPDATE SKIP LOCKED)
    SELECT id, clock_timestamp() AS now FROM due`;

/**
 * Claims up to `limit` live payments whose fee is still reserved past their late window (pending or
 * expired: the fee is due back), that no other transaction holds, the earliest `lateUntil` first:
 * the late-window sweep's batch, with the clock read once they are held. As `claimDuePending`: rows
 * held elsewhere are skipped, so sweeps split the work, and `statement_timestamp()` bounds
 * payments_reserved_late_idx.
 */
export async function claimLateWindowsOver(tx: Tx, limit: number): Promise<{ id: string; now: Date }[]> {
  return tx.$queryRawUnsafe<{ id: string; now: Date }[]>(CLAIM_LATE_WINDOWS_OVER, limit);
}

/** A live fee still reserved past its payment's late window: what the late-window sweep claims. */
const LATE_WINDOW_OVER = `fee_state = 'reserved' AND late_until <= statement_timestamp() AND status IN ('pending', 'expired')`;

/**
 * `claimLateWindowsOver`'s statement ($1: how many), exported for the test that reads its plan. The
 * claimed payments come back by merchant: giving their fees back then locks merchants in one order
 * in every batch, so two sweeps' batches never wait on each other's merchants in a cycle.
 */
export const CLAIM_LATE_WINDOWS_OVER = `
    WITH over AS (
      SELECT id, merchant_id FROM payments
      WHERE ${LATE_WINDOW_OVER}
      ORDER BY late_until
      LIMIT $1::int
      FOR UPDATE SKIP LOCKED)
    SELECT id, clock_timestamp() AS now FROM over ORDER BY merchant_id, id`;

/** Each sweep's rows: what it is due to settle, and the deadline that makes them due. */
const SWEPT = {
  expiry: { where: DUE_PENDING, deadline: 'expires_at' },
  'late-window': { where: LATE_WINDOW_OVER, deadline: 'late_until' },
} as const;
export type Sweep = keyof typeof SWEPT;

/**
 * The payments a sweep's batch would claim, read without locking them: what the sweep goes through
 * one by one, each in its own transaction, after a batch failed (see `oneByOne` in sweeps.ts).
 */
export async function sweepCandidates(tx: Pick<Tx, '$queryRawUnsafe'>, sweep: Sweep, limit: number): Promise<string[]> {
  const { where, deadline } = SWEPT[sweep];
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM payments WHERE ${where} ORDER BY ${deadline} LIMIT $1::int`, limit);
  return rows.map((r) => r.id);
}

/**
 * Seconds since the deadline of the oldest payment a sweep is due to settle (0 when none), through
 * the sweep's own index: how far behind it is (`gateway_expiry_overdue_seconds`,
 * `gateway_late_window_overdue_seconds`).
 */
export async function overdueSeconds(db: Pick<pg.Pool, 'query'>, sweep: Sweep): Promise<number> {
  const { where, deadline } = SWEPT[sweep];
  const { rows } = await db.query<{ s: number | null }>(`SELECT extract(epoch FROM statement_timestamp() - min(${deadline}))::float8 AS s FROM payments WHERE ${where}`);
  return rows[0]?.s ?? 0;
}
