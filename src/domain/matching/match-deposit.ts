import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';
import { recordMessageNeedsReview } from '../bank-messages/review-events.js';
import { recordReviewRequired } from '../payments/events.js';
import { refusal } from '../payments/state-machine.js';
import { holderOfAmount, pendingWithRequestedAmount } from '../payments/store/holds.js';
import { applyTransition, lockPayment, type LockedPayment } from '../payments/transitions.js';
import { createdBefore, decideMatch, type Deposit, type MatchCandidate, type ReviewReason } from './decide-match.js';

export type { Deposit, ReviewReason } from './decide-match.js';

export type ScopeCard = { id: string; projectId: string; cardNumber: string; accountNumber: string | null; smsSender?: string | null };

export type MatchOutcome = {
  status: 'matched' | 'needs_review' | 'unmatched';
  statusReason: string;
  /** The machine code of a `needs_review` outcome. */
  reviewReason?: ReviewReason;
  paymentId: string | null;
  cardId: string | null;
  projectId: string | null;
};

function outcome(status: MatchOutcome['status'], statusReason: string, extra: Partial<MatchOutcome> = {}): MatchOutcome {
  return { status, statusReason, paymentId: null, cardId: null, projectId: null, ...extra };
}

/**
 * Flags the pending payments a held deposit could be for the merchant's review, with the attention
 * events: `payment.review_required` for each newly flagged one, `bank_message.needs_review` for the
 * message.
 */
async function flagForReview(tx: Tx, jobs: JobQueue, message: { id: string; amount: bigint }, ids: string[], reason: ReviewReason) {
  const before = new Map((await tx.payment.findMany({ where: { id: { in: ids } }, select: { id: true, reviewRequired: true } })).map((p) => [p.id, p]));
  const flagged = ids.length ? await tx.payment.updateManyAndReturn({ where: { id: { in: ids }, status: 'pending' }, data: { reviewRequired: true, reviewReason: reason } }) : [];
  for (const p of flagged) {
    const event = await recordReviewRequired(tx, jobs, before.get(p.id) ?? { reviewRequired: false }, p);
    await notifyPaymentChanged(tx, p, event?.id);
  }
  const candidates = await tx.payment.findMany({ where: { id: { in: ids } }, select: { id: true, projectId: true } });
  // The message remembers whom it flagged: a decision on it clears their flags (review-flags.ts).
  await tx.bankMessage.update({ where: { id: message.id }, data: { flaggedPaymentIds: flagged.map((p) => p.id) } });
  await recordMessageNeedsReview(tx, jobs, { ...message, reviewReason: reason }, candidates);
}

/** The payment holding exactly this amount in the scope, locked, as a candidate. */
async function exactCandidate(tx: Tx, scope: string, amount: bigint): Promise<{ candidate: MatchCandidate; locked: LockedPayment } | null> {
  const hold = await holderOfAmount(tx, scope, amount);
  if (!hold) return null;
  const locked = await lockPayment(tx, hold.paymentId);
  return { locked, candidate: { ...locked, stateRefusal: refusal(locked, 'confirm', locked.lockedAt) } };
}

/** Pending payments of the cards whose amount without code is the deposit's (the payer left the code out). */
async function baseCandidates(tx: Tx, scope: string, cardIds: string[], deposit: Deposit, except: string | null): Promise<MatchCandidate[]> {
  const rows = await pendingWithRequestedAmount(tx, { scope, cardIds, amount: deposit.amount, sandbox: deposit.simulated, createdBefore: createdBefore(deposit), except });
  return rows.map((r) => ({ ...r, stateRefusal: null }));
}

/**
 * Matches one deposit inside the caller's transaction (the message row already locked), among the
 * payments of `cards` (the cards the deposit was resolved to): reads the candidates, lets
 * `decideMatch` decide, applies it. Invariants: a deposit confirms at most one payment
 * (`confirmed_by_message_id` is unique) and a payment is confirmed at most once (row lock +
 * conditional status update).
 */
export async function matchDeposit(tx: Tx, jobs: JobQueue, messageId: string, scope: string, cards: ScopeCard[], deposit: Deposit): Promise<MatchOutcome> {
  const cardIds = cards.map((c) => c.id);
  const onlyCard = cards.length === 1 ? { cardId: cards[0]!.id, projectId: cards[0]!.projectId } : {};
  const exact = await exactCandidate(tx, scope, deposit.amount);
  const base = await baseCandidates(tx, scope, cardIds, deposit, exact?.candidate.id ?? null);
  const decision = decideMatch({ deposit, cardIds, exact: exact?.candidate ?? null, base });
  switch (decision.kind) {
    case 'confirm': {
      const confirmed = await applyTransition(tx, jobs, exact!.locked, 'confirm', {
        confirmationSource: 'auto_sms',
        confirmedByMessageId: messageId,
        // A fake or out-of-order message may have flagged it first; the deposit that confirms it settles that.
        reviewRequired: false,
        reviewReason: null,
        ...(deposit.payerCardLast4 ? { payerCardLast4: deposit.payerCardLast4 } : {}),
      }, deposit.amount);
      const late = confirmed.expiredAt ? ' (late, inside the late window)' : '';
      return outcome('matched', `Confirmed payment ${confirmed.id}${late}.`, { paymentId: confirmed.id, cardId: confirmed.cardId, projectId: confirmed.projectId });
    }
    case 'review': {
      await flagForReview(tx, jobs, { id: messageId, amount: deposit.amount }, decision.flag, decision.reason);
      const p = decision.payment;
      const on = p ? { paymentId: p.id, cardId: p.cardId, projectId: p.projectId } : onlyCard;
      return outcome('needs_review', decision.statusReason, { ...on, reviewReason: decision.reason });
    }
    case 'unmatched':
      return outcome('unmatched', decision.statusReason, onlyCard);
  }
}
