import type { Tx } from '../../db/prisma.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';
import { clearDepositReviewFlags } from '../payments/store/review.js';

/**
 * A held deposit flags the payments it could be for the merchant's review (match-deposit.ts,
 * `flaggedPaymentIds` on the message). Once the merchant decides the deposit (attach, confirm by
 * hand with it, dismiss, refund), the flags it set are cleared on the payments no other held
 * deposit still flags, so the review queue empties as decisions are made. A flag of another kind
 * (a payer's report with no deposit) is not the deposit's to clear.
 */
export async function releaseReviewFlags(tx: Tx, message: { id: string; flaggedPaymentIds: string[] }, except: string | null = null): Promise<void> {
  const cleared = await clearDepositReviewFlags(tx, message.flaggedPaymentIds.filter((id) => id !== except), message.id);
  for (const p of cleared) await notifyPaymentChanged(tx, p);
}
