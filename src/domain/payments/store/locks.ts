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
 * Locks the pending payments of `ids` that no other transaction holds (with the clock read once
 * they are held); the pending ones another transaction holds come back with `now: null`, not waited for.
 */
export async function lockPendingSkippingBusy(tx: Tx, ids: string[]): Promise<{ id: string; now: Date | null }[]> {
  return tx.$queryRaw<{ id: string; now: Date | null }[]>`
    WITH due AS (SELECT id FROM payments WHERE id = ANY(${ids}::uuid[]) AND status = 'pending' ORDER BY id FOR UPDATE SKIP LOCKED)
    SELECT id, clock_timestamp() AS now FROM due
    UNION ALL
    SELECT id, NULL FROM payments WHERE id = ANY(${ids}::uuid[]) AND status = 'pending' AND id NOT IN (SELECT id FROM due)`;
}
