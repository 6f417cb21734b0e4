import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';
import type { EvidenceProblem, EvidenceReason } from '../bank-messages/evidence.js';
import { refusal } from '../payments/state-machine.js';
import { applyTransition, lockPayment } from '../payments/transitions.js';

/** A deposit as the engine sees it, whether read from a real SMS or simulated. */
export type Deposit = {
  amount: bigint;
  /** When the money arrived: the bank's time, else the SMS's arrival. */
  at: Date;
  payerCardLast4?: string | null;
  /**
   * A real bank SMS confirms live payments only; a simulated deposit sandbox payments only. Real
   * money never settles a free sandbox payment, and a simulation never settles a live one.
   */
  simulated: boolean;
  /** Evidence that failed (sender, bank, balance chain, format): the match is found but held for the merchant. */
  review?: EvidenceProblem | null;
};

export type ReviewReason = 'amount_without_code' | 'ambiguous_deposit' | EvidenceReason;

export type ScopeCard = { id: string; projectId: string; cardNumber: string; accountNumber: string | null; smsSender?: string | null };

export type MatchOutcome = {
  status: 'matched' | 'needs_review' | 'unmatched';
  statusReason: string;
  paymentId: string | null;
  cardId: string | null;
  projectId: string | null;
};

// A payment is a candidate only if it existed (give or take clock skew) when the money arrived.
const CREATED_BEFORE_SLACK_MS = 2 * 60 * 1000;

function outcome(status: MatchOutcome['status'], statusReason: string, extra: Partial<MatchOutcome> = {}): MatchOutcome {
  return { status, statusReason, paymentId: null, cardId: null, projectId: null, ...extra };
}

async function flagForReview(tx: Tx, ids: string[], reason: ReviewReason) {
  if (ids.length === 0) return;
  await tx.payment.updateMany({ where: { id: { in: ids }, status: 'pending' }, data: { reviewRequired: true, reviewReason: reason } });
  const flagged = await tx.payment.findMany({ where: { id: { in: ids } }, select: { id: true, projectId: true } });
  for (const p of flagged) await notifyPaymentChanged(tx, p);
}

/**
 * Decides what one deposit means, inside the caller's transaction (the message row already locked),
 * among the payments of `cards` (the cards the deposit was resolved to).
 * One code path for real and simulated deposits. Invariants: a deposit confirms at most one payment
 * (`confirmed_by_message_id` is unique) and a payment is confirmed at most once (row lock +
 * conditional status update); two candidates are never guessed between.
 */
export async function matchDeposit(
  tx: Tx,
  jobs: JobQueue,
  messageId: string,
  scope: string,
  cards: ScopeCard[],
  deposit: Deposit,
): Promise<MatchOutcome> {
  const cardIds = cards.map((c) => c.id);
  const onlyCard = cards.length === 1 ? cards[0]! : null;
  const createdBefore = new Date(deposit.at.getTime() + CREATED_BEFORE_SLACK_MS);

  const [exactHold] = await tx.$queryRaw<{ payment_id: string }[]>`
    SELECT payment_id FROM amount_holds WHERE scope = ${scope} AND released_at IS NULL AND amount = ${deposit.amount}`;
  let exact = exactHold ? await lockPayment(tx, exactHold.payment_id) : null;
  let exactRefusal: string | null = null;
  if (exact) {
    const closed = refusal(exact, 'confirm', exact.lockedAt);
    if (exact.sandbox !== deposit.simulated) {
      exactRefusal = deposit.simulated ? 'is held by a live payment, which a simulation never confirms' : 'is held by a sandbox payment, which real money never confirms';
    } else if (!cardIds.includes(exact.cardId)) exactRefusal = 'is held by a payment on another card';
    else if (exact.createdAt.getTime() > createdBefore.getTime()) exactRefusal = 'is held by a payment created after the deposit';
    else if (closed) exactRefusal = `is held by payment ${exact.id}, which cannot be confirmed: ${closed}`;
    if (exactRefusal) exact = null;
  }

  const base = await tx.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM payments p JOIN amount_holds h ON h.payment_id = p.id
    WHERE h.scope = ${scope} AND h.released_at IS NULL AND p.status = 'pending' AND p.late_until > now()
      AND p.sandbox = ${deposit.simulated} AND p.amount_requested = ${deposit.amount} AND p.card_id = ANY(${cardIds}::uuid[])
      AND p.created_at <= ${createdBefore} AND p.id <> ${exact?.id ?? '00000000-0000-0000-0000-000000000000'}::uuid
    ORDER BY p.created_at`;
  const baseIds = base.map((b) => b.id);

  if (exact && baseIds.length === 0 && deposit.review) {
    await flagForReview(tx, [exact.id], deposit.review.reason);
    return outcome('needs_review', `Would confirm payment ${exact.id}, but: ${deposit.review.detail}`, {
      paymentId: exact.id,
      cardId: exact.cardId,
      projectId: exact.projectId,
    });
  }
  if (exact && baseIds.length === 0) {
    const confirmed = await applyTransition(
      tx,
      jobs,
      exact,
      'confirm',
      {
        confirmationSource: 'auto_sms',
        confirmedByMessageId: messageId,
        // A fake or out-of-order message may have flagged it first; the deposit that confirms it settles that.
        reviewRequired: false,
        reviewReason: null,
        ...(deposit.payerCardLast4 ? { payerCardLast4: deposit.payerCardLast4 } : {}),
      },
    );
    const late = confirmed.expiredAt ? ' (late, inside the late window)' : '';
    return outcome('matched', `Confirmed payment ${confirmed.id}${late}.`, { paymentId: confirmed.id, cardId: confirmed.cardId, projectId: confirmed.projectId });
  }
  if (exact) {
    await flagForReview(tx, [exact.id, ...baseIds], 'ambiguous_deposit');
    return outcome('needs_review', `The amount is exactly payment ${exact.id}'s and also the amount without code of ${baseIds.join(', ')}; a person must decide.`, {
      paymentId: exact.id,
      cardId: exact.cardId,
      projectId: exact.projectId,
    });
  }
  if (baseIds.length === 1) {
    await flagForReview(tx, baseIds, 'amount_without_code');
    const p = await tx.payment.findUniqueOrThrow({ where: { id: baseIds[0]! } });
    return outcome('needs_review', `The amount is payment ${p.id}'s requested amount without its code.`, { paymentId: p.id, cardId: p.cardId, projectId: p.projectId });
  }
  if (baseIds.length > 1) {
    await flagForReview(tx, baseIds, 'ambiguous_deposit');
    return outcome('needs_review', `The amount without code fits ${baseIds.length} payments (${baseIds.join(', ')}); a person must decide.`, {
      cardId: onlyCard?.id ?? null,
      projectId: onlyCard?.projectId ?? null,
    });
  }
  const why = exactRefusal ? `The amount ${deposit.amount} ${exactRefusal}.` : `No open payment holds the amount ${deposit.amount}.`;
  return outcome('unmatched', why, { cardId: onlyCard?.id ?? null, projectId: onlyCard?.projectId ?? null });
}
