import { z } from 'zod';
import { paymentDecisionAudit } from '../domain/payments/decision-audit.js';
import { transitionRefusal } from '../domain/payments/state-machine.js';
import { applyTransition, type LockedPayment } from '../domain/payments/transitions.js';
import type { PaymentRow } from '../domain/payments/types.js';
import type { Operation } from './operation.js';
import { lockDecidedPayment } from './targets.js';

const input = z.object({ reason: z.string().trim().min(1, 'must be 1..300 characters').max(300, 'must be 1..300 characters') });

/**
 * The merchant rejects a pending payment: its reserved fee goes back, payment.rejected carries the
 * reason. A project key rejects its own project's payments, a merchant credential any of its own.
 */
export const rejectPayment: Operation<z.output<typeof input>, LockedPayment, PaymentRow> = {
  name: 'reject a payment',
  who: 'decider',
  input,
  emits: ['payment.rejected'],
  load: (tx, { actor, id }) => lockDecidedPayment(tx, actor, id),
  check: (payment) => transitionRefusal(payment, 'reject', payment.lockedAt),
  async write(tx, payment, { reason }, deps) {
    const rejected = await applyTransition(tx, deps.jobs, payment, 'reject', { rejectReason: reason });
    return { result: rejected, audit: [paymentDecisionAudit('payment.rejected', payment, rejected, reason)] };
  },
};
