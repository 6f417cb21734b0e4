import type { Tx } from '../../db/prisma.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';
import type { PaymentRow } from './types.js';

/**
 * The merchant's word that a flagged payment needs nothing more: its review flag is cleared, its
 * status does not change (src/operations/dismiss-payment-review.ts).
 */
export async function clearReview(tx: Tx, payment: PaymentRow): Promise<PaymentRow> {
  const cleared = await tx.payment.update({ where: { id: payment.id }, data: { reviewRequired: false, reviewReason: null } });
  await notifyPaymentChanged(tx, cleared);
  return cleared;
}
