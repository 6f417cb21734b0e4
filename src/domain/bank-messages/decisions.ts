import type { Tx } from '../../db/prisma.js';
import { AppError, type Refusal } from '../../errors.js';
import type { BankMessage, Prisma } from '../../generated/prisma/client.js';
import type { Actor } from '../auth/actor.js';
import { callerScope } from '../auth/scope.js';
import { uuidSchema } from '../validation.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { trustOnDecision } from './followers.js';
import { lockCardChain } from './store/evidence.js';
import { lockMessageRow } from './store/messages.js';
import { DECIDABLE_STATUSES } from './messages.js';

/**
 * Which bank messages a caller sees: a merchant all of its own (or one project's, with `projectId`);
 * a project those resolved to it and those from devices that hold one of its cards (an unmatched
 * deposit has no project yet).
 */
export function visibleMessages(actor: Actor, projectId?: string | null): Prisma.BankMessageWhereInput {
  const scope = callerScope(actor, projectId);
  if (scope.none) return { id: { in: [] } };
  if (!scope.projectId) return { merchantId: scope.merchantId };
  return {
    merchantId: scope.merchantId,
    OR: [{ projectId: scope.projectId }, { device: { cards: { some: { projectId: scope.projectId } } } }],
  };
}

/**
 * Locks a message the caller can see, for a decision on it; any other id is not found. Its card's
 * chain lock is taken first, then the row: the order an SMS of that card takes (the chain, then the
 * held messages it trusts), so a decision and the card's next SMS wait for each other instead of
 * deadlocking (a decision that trusts, dismisses or refunds a held message moves the chain).
 */
export async function lockVisibleMessage(tx: Tx, actor: Actor, id: string): Promise<BankMessage> {
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Bank message');
  const seen = await tx.bankMessage.findFirst({ where: { AND: [{ id }, visibleMessages(actor)] }, select: { cardId: true } });
  if (!seen) throw AppError.notFound('Bank message');
  if (seen.cardId) await lockCardChain(tx, seen.cardId);
  const locked = await lockMessageRow(tx, id);
  const message = locked ? await tx.bankMessage.findFirst({ where: { AND: [{ id }, visibleMessages(actor)] } }) : null;
  if (!message) throw AppError.notFound('Bank message');
  // A card named in the meantime (an attach of a message that had none): its chain too.
  if (message.cardId && message.cardId !== seen.cardId) await lockCardChain(tx, message.cardId);
  return message;
}

/**
 * The merchant's attach (src/operations/attach-deposit.ts): the message is the payment's money. A
 * deposit held for its balance becomes the card's new chain reference (under its chain lock).
 */
export async function markAttached(
  tx: Tx,
  jobs: JobQueue,
  message: { id: string; cardId: string | null; evidenceProblem: string | null },
  payment: { id: string; projectId: string; cardId: string },
  note: string | null,
): Promise<void> {
  await tx.bankMessage.update({
    where: { id: message.id },
    data: {
      status: 'matched',
      statusReason: `Attached by the merchant to payment ${payment.id}.`,
      reviewReason: null,
      paymentId: payment.id,
      projectId: payment.projectId,
      cardId: message.cardId ?? payment.cardId,
      decisionNote: note,
      decidedAt: new Date(),
    },
  });
  if (message.evidenceProblem === 'balance_mismatch') await trustOnDecision(tx, jobs, { id: message.id, cardId: message.cardId ?? payment.cardId });
}

/** The merchant's word that a message needs nothing more (no payment to confirm for it). */
export function markDismissed(tx: Tx, messageId: string, note: string | null): Promise<BankMessage> {
  return tx.bankMessage.update({
    where: { id: messageId },
    data: { status: 'dismissed', reviewReason: null, decisionNote: note, decidedAt: new Date(), statusReason: 'Dismissed by the merchant.' },
  });
}

/** A message's status the merchant may still dismiss: refused (409 `invalid_state`) otherwise. */
export function dismissRefusal(message: { status: string }): Refusal | null {
  if ((DECIDABLE_STATUSES as readonly string[]).includes(message.status)) return null;
  return { code: 'invalid_state', message: `Only messages that are ${DECIDABLE_STATUSES.join(', ')} can be dismissed.`, details: { status: message.status } };
}

/**
 * The deposit a manual confirmation settles: when exactly one message is waiting on this payment
 * for review, it is the payment's money.
 */
export async function reviewedDeposit(tx: Tx, paymentId: string): Promise<{ id: string; cardId: string | null; amount: bigint | null; flaggedPaymentIds: string[] } | null> {
  const waiting = await tx.bankMessage.findMany({
    where: { status: 'needs_review', OR: [{ paymentId }, { flaggedPaymentIds: { has: paymentId } }] },
    select: { id: true, cardId: true, amount: true, flaggedPaymentIds: true },
    take: 2,
  });
  return waiting.length === 1 ? waiting[0]! : null;
}

/**
 * The reviewed deposit becomes the confirming message, and evidence for the ones after it. The
 * flags it set on other payments are cleared by the caller before the confirmation charges the fee
 * (`releaseReviewFlags`): payments' rows are locked before the merchant's.
 */
export async function settleReviewedMessage(tx: Tx, jobs: JobQueue, message: { id: string; cardId: string | null }, paymentId: string): Promise<void> {
  await tx.bankMessage.update({
    where: { id: message.id },
    data: { status: 'matched', paymentId, reviewReason: null, statusReason: 'Confirmed manually by the merchant after review.', decidedAt: new Date() },
  });
  // A deposit the merchant confirmed after checking the bank becomes evidence for the ones after it.
  await trustOnDecision(tx, jobs, message);
}
