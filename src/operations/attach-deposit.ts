import { z } from 'zod';
import { AppError } from '../errors.js';
import type { BankMessage } from '../generated/prisma/client.js';
import { callerScope } from '../domain/auth/scope.js';
import { lockVisibleMessage, markAttached } from '../domain/bank-messages/decisions.js';
import { attachRefusal } from '../domain/matching/decide-attach.js';
import { releaseReviewFlags } from '../domain/matching/review-flags.js';
import { paymentDecisionAudit } from '../domain/payments/decision-audit.js';
import { applyTransition, lockPayment, type LockedPayment } from '../domain/payments/transitions.js';
import type { PaymentRow } from '../domain/payments/types.js';
import { uuidSchema } from '../domain/validation.js';
import { noteSchema } from './confirm-by-hand.js';
import type { Operation } from './operation.js';

const input = z.object({
  messageId: z.string(),
  paymentId: z.string(),
  acceptAmount: z.boolean().nullish(),
  note: noteSchema,
});

export type Attached = { payment: PaymentRow; messageId: string };

/**
 * Attach (docs/exceptions.md): the merchant says "this deposit is this payment's money". The
 * `attach` transition confirms it (`confirmedLate` after its late window, the fee charged, again if
 * it had been released); the message becomes `matched` (and, held for its balance, its card's new
 * chain reference); the audit log records both sides.
 */
export const attachDeposit: Operation<z.output<typeof input>, { message: BankMessage; payment: LockedPayment }, Attached> = {
  name: 'attach a deposit',
  who: 'decider',
  input,
  emits: ['payment.expired', 'payment.review_required', 'payment.confirmed'],
  // The message first (one the caller sees), then the payment (in the caller's scope).
  async load(tx, { actor, input: { messageId, paymentId } }) {
    if (!uuidSchema.safeParse(messageId).success) throw AppError.notFound('Bank message');
    if (!uuidSchema.safeParse(paymentId).success) throw AppError.notFound('Payment');
    const message = await lockVisibleMessage(tx, actor, messageId);
    return { message, payment: await lockPayment(tx, paymentId, callerScope(actor)) };
  },
  check: ({ message, payment }, { acceptAmount }) => attachRefusal(message, payment, acceptAmount ?? false),
  async write(tx, { message, payment }, data, deps) {
    const note = data.note ?? null;
    // Other payments' rows before the merchant's (the fee): every transaction locks payments first.
    await releaseReviewFlags(tx, message, payment.id);
    const confirmed = await applyTransition(
      tx,
      deps.jobs,
      payment,
      'attach',
      { confirmationSource: 'manual', confirmedByMessageId: message.id, manualNote: note, reviewRequired: false, reviewReason: null },
      message.amount!,
    );
    await markAttached(tx, deps.jobs, message, confirmed, note);
    return {
      result: { payment: confirmed, messageId: message.id },
      audit: [
        paymentDecisionAudit('payment.deposit_attached', payment, confirmed, note),
        {
          action: 'bank_message.attached',
          subjectType: 'bank_message',
          subjectId: message.id,
          projectId: confirmed.projectId,
          note,
          changes: { status: { from: message.status, to: 'matched' }, paymentId: { from: message.paymentId, to: confirmed.id } },
        },
      ],
    };
  },
};
