import { z } from 'zod';
import { paymentDecisionAudit } from '../domain/payments/decision-audit.js';
import { clearReview } from '../domain/payments/review.js';
import type { LockedPayment } from '../domain/payments/transitions.js';
import type { PaymentRow } from '../domain/payments/types.js';
import { noteSchema } from './confirm-by-hand.js';
import type { Operation } from './operation.js';
import { lockDecidedPayment } from './targets.js';

const input = z.object({ note: noteSchema });

/**
 * The merchant's word that a flagged payment needs nothing more: a payer reported paying and
 * nothing came, or a held deposit turned out not to be this payment's. The review is cleared; the
 * payment's status does not change.
 */
export const dismissPaymentReview: Operation<z.output<typeof input>, LockedPayment, PaymentRow> = {
  name: 'dismiss a payment’s review',
  who: 'decider',
  input,
  emits: [],
  load: (tx, { actor, id }) => lockDecidedPayment(tx, actor, id),
  check: (payment) => (payment.reviewRequired ? null : { code: 'invalid_state', message: 'The payment is not flagged for review.', details: { status: payment.status } }),
  async write(tx, payment, { note }) {
    const cleared = await clearReview(tx, payment);
    return { result: cleared, audit: [paymentDecisionAudit('payment.review_dismissed', payment, cleared, note ?? null)] };
  },
};
