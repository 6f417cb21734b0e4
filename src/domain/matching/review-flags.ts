import type { Tx } from '../../db/prisma.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';

/**
 * A held deposit flags the payments it could be for the merchant's review (match-deposit.ts,
 * `flaggedPaymentIds` on the message). Once the merchant decides the deposit (attach, confirm by
 * hand with it, dismiss, refund), the flags it set are cleared on the payments no other held
 * deposit still flags, so the review queue empties as decisions are made. A flag of another kind
 * (a payer's report with no deposit) is not the deposit's to clear.
 */
const DEPOSIT_REVIEW_REASONS = ['amount_without_code', 'ambiguous_deposit', 'unknown_sender', 'balance_mismatch', 'bank_mismatch', 'unrecognized_format'];

export async function releaseReviewFlags(tx: Tx, message: { id: string; flaggedPaymentIds: string[] }, except: string | null = null): Promise<void> {
  const ids = message.flaggedPaymentIds.filter((id) => id !== except);
  if (ids.length === 0) return;
  const cleared = await tx.$queryRaw<{ id: string; project_id: string }[]>`
    UPDATE payments p SET review_required = false, review_reason = NULL, updated_at = now()
    WHERE p.id = ANY(${ids}::uuid[]) AND p.review_required AND p.status <> 'confirmed'
      AND p.review_reason = ANY(${DEPOSIT_REVIEW_REASONS}::text[])
      AND NOT EXISTS (
        SELECT 1 FROM bank_messages m
        WHERE m.id <> ${message.id}::uuid AND m.status = 'needs_review' AND (m.payment_id = p.id OR p.id = ANY(m.flagged_payment_ids)))
    RETURNING p.id, p.project_id`;
  for (const p of cleared) await notifyPaymentChanged(tx, { id: p.id, projectId: p.project_id });
}
