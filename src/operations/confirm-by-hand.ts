import { z } from 'zod';
import type { Tx } from '../db/prisma.js';
import type { Deps } from '../domain/deps.js';
import { reviewedDeposit, settleReviewedMessage } from '../domain/bank-messages/decisions.js';
import { releaseReviewFlags } from '../domain/matching/review-flags.js';
import { paymentDecisionAudit } from '../domain/payments/decision-audit.js';
import { afterLateWindow } from '../domain/payments/state-machine.js';
import { applyTransition, type LockedPayment } from '../domain/payments/transitions.js';
import type { PaymentRow } from '../domain/payments/types.js';
import type { Operation, Request, Written } from './operation.js';
import { lockDecidedPayment } from './targets.js';

export const noteSchema = z.string().trim().max(500, 'must be at most 500 characters').nullish();

const input = z.object({ note: noteSchema });

/** The payment, and the one deposit waiting on it for review (none when zero or several): what it received. */
export type ManualConfirmation = { payment: LockedPayment; waiting: Awaited<ReturnType<typeof reviewedDeposit>> };

/**
 * The merchant's confirmation after review (`confirmPaymentManually` without `late`): a pending
 * payment, or an expired one inside its late window (`confirm`); `confirmationSource` manual. After
 * the late window it is refused: that takes `late` (confirm-late.ts) or the deposit's attach.
 */
export const confirmPaymentByHand: Operation<z.output<typeof input>, ManualConfirmation, PaymentRow> = {
  name: 'confirm a payment by hand',
  who: 'decider',
  input,
  // A pending payment past its deadline is expired first (and flagged, if its payer reported paying).
  emits: ['payment.expired', 'payment.review_required', 'payment.confirmed'],
  load: loadManualConfirmation,
  check: ({ payment }) =>
    payment.status !== 'confirmed' && afterLateWindow(payment, payment.lockedAt)
      ? {
          code: 'invalid_state',
          message: 'Cannot confirm this payment: its late-confirmation window has ended. Confirm it with late: true and a note (money seen in the bank), or attach its deposit.',
          details: { status: payment.status },
        }
      : null,
  write: (tx, loaded, { note }, deps) => confirmManually(tx, deps, loaded, 'confirm', note ?? null),
};

export async function loadManualConfirmation(tx: Tx, { actor, id }: Request<unknown>): Promise<ManualConfirmation> {
  const payment = await lockDecidedPayment(tx, actor, id);
  return { payment, waiting: await reviewedDeposit(tx, payment.id) };
}

/**
 * Confirms by hand; a deposit waiting on the payment for review becomes its confirming message
 * (and evidence for the ones after it, under its card's chain lock). The other payments it flagged
 * are released before the confirmation takes the merchant's row (the fee): every transaction locks
 * payments before the merchant.
 */
export async function confirmManually(tx: Tx, deps: Deps, { payment, waiting }: ManualConfirmation, name: 'confirm' | 'confirm_late', note: string | null): Promise<Written<PaymentRow>> {
  if (waiting) await releaseReviewFlags(tx, waiting, payment.id);
  const confirmed = await applyTransition(
    tx,
    deps.jobs,
    payment,
    name,
    { confirmationSource: 'manual', manualNote: note, reviewRequired: false, reviewReason: null, confirmedByMessageId: waiting?.id ?? null },
    waiting?.amount ?? undefined,
  );
  if (waiting) await settleReviewedMessage(tx, deps.jobs, waiting, confirmed.id);
  return { result: confirmed, audit: [paymentDecisionAudit(name === 'confirm_late' ? 'payment.confirmed_late' : 'payment.confirmed_manually', payment, confirmed, note)] };
}
