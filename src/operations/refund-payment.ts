import type { z } from 'zod';
import { paymentDecisionAudit } from '../domain/payments/decision-audit.js';
import type { LockedPayment } from '../domain/payments/transitions.js';
import { paymentRefundRefusal, recordPaymentRefund, refundInput, type RecordedRefund } from '../domain/refunds/refunds.js';
import type { Operation } from './operation.js';
import { lockDecidedPayment } from './targets.js';

/**
 * A refund of a confirmed payment, recorded (the merchant paid it back from their bank): never
 * above what the payment received, checked under its row lock (and again by the database);
 * payment.refunded is sent. Under an idempotency key a retried refund is recorded once.
 */
export const refundPayment: Operation<z.output<typeof refundInput>, LockedPayment, RecordedRefund> = {
  name: 'refund a payment',
  who: 'decider',
  input: refundInput,
  emits: ['payment.refunded'],
  load: (tx, { actor, id }) => lockDecidedPayment(tx, actor, id),
  check: (payment, { amount }) => paymentRefundRefusal(payment, amount),
  async write(tx, payment, data, deps) {
    const recorded = await recordPaymentRefund(tx, deps.jobs, payment, data);
    const note = data.note ?? null;
    return {
      result: recorded,
      audit: [
        paymentDecisionAudit('payment.refunded', payment, recorded.payment, note),
        {
          action: 'refund.recorded',
          subjectType: 'refund',
          subjectId: recorded.refund.id,
          projectId: payment.projectId,
          note,
          changes: { amount: { from: null, to: recorded.refund.amount.toString() }, paymentId: { from: null, to: payment.id } },
        },
      ],
    };
  },
};
