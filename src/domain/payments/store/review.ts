import type { Tx } from '../../../db/prisma.js';

/** The review reasons a held deposit sets on the payments it flags (match-deposit.ts). */
const DEPOSIT_REVIEW_REASONS = ['amount_without_code', 'ambiguous_deposit', 'unknown_sender', 'balance_mismatch', 'bank_mismatch', 'unrecognized_format'];

/**
 * Clears the deposit-review flags of `ids` that no held deposit other than `decided` still flags
 * (its own `payment_id`, or among its `flagged_payment_ids`); a confirmed payment and a flag of
 * another kind (a payer's report) are left alone. Returns the payments cleared.
 */
export async function clearDepositReviewFlags(tx: Tx, ids: string[], decided: string): Promise<{ id: string; projectId: string }[]> {
  if (ids.length === 0) return [];
  const rows = await tx.$queryRaw<{ id: string; project_id: string }[]>`
    UPDATE payments p SET review_required = false, review_reason = NULL, updated_at = now()
    WHERE p.id = ANY(${ids}::uuid[]) AND p.review_required AND p.status <> 'confirmed'
      AND p.review_reason = ANY(${DEPOSIT_REVIEW_REASONS}::text[])
      AND NOT EXISTS (
        SELECT 1 FROM bank_messages m
        WHERE m.id <> ${decided}::uuid AND m.status = 'needs_review' AND (m.payment_id = p.id OR p.id = ANY(m.flagged_payment_ids)))
    RETURNING p.id, p.project_id`;
  return rows.map((r) => ({ id: r.id, projectId: r.project_id }));
}
