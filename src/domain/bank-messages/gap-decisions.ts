import type { Tx } from '../../db/prisma.js';
import { AppError, type Refusal } from '../../errors.js';
import type { BalanceGap, BankMessage } from '../../generated/prisma/client.js';
import type { JobQueue } from '../../queue/job-queue.js';
import type { Actor } from '../auth/actor.js';
import { callerScope, scopeWhere } from '../auth/scope.js';
import { deviceScope } from '../cards/selection.js';
import { matchDeposit } from '../matching/match-deposit.js';
import { TRANSITIONS } from '../payments/state-machine.js';
import { uuidSchema } from '../validation.js';
import { chainCardOf, trustFollowers } from './followers.js';
import { gapDismissedWithMessage, syncBalanceGaps } from './gap-sync.js';
import { settle } from './messages.js';
import { lockCardChain, trustMessage } from './store/evidence.js';
import { lockGapRow } from './store/gaps.js';
import { lockMessageRow } from './store/messages.js';

/**
 * The merchant's decision on a balance gap (src/operations/resolve-balance-gap.ts), its domain
 * half: which gaps a caller sees, the refusals, and the chain moving on once it is decided.
 */

/** The gaps a caller sees: a merchant credential all of the merchant's (or one project's), a project key its project's. */
export function visibleGaps(actor: Actor, projectId?: string | null) {
  return scopeWhere(callerScope(actor, projectId));
}

/**
 * Locks a gap the caller can see, and its card's chain first (the order every message of the card
 * takes: chain, then gaps, then messages); any other id is not found.
 */
export async function lockVisibleGap(tx: Tx, actor: Actor, id: string): Promise<BalanceGap> {
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Balance gap');
  const seen = await tx.balanceGap.findFirst({ where: { AND: [{ id }, visibleGaps(actor)] }, select: { cardId: true } });
  if (!seen) throw AppError.notFound('Balance gap');
  await lockCardChain(tx, seen.cardId);
  await lockGapRow(tx, id);
  // A gap that turned out to be another's (its end now waits behind an earlier one) is gone: not found.
  const gap = await tx.balanceGap.findUnique({ where: { id } });
  if (!gap) throw AppError.notFound('Balance gap');
  await lockMessageRow(tx, gap.toMessageId);
  return gap;
}

/** The same decision again answers the gap as it is (idempotent); another one on a decided gap is refused. */
export function gapDecisionRefusal(gap: BalanceGap, paymentId: string | null): Refusal | 'repeat' | null {
  if (gap.status === 'open') return null;
  if (paymentId !== null ? gap.resolvedPaymentId === paymentId : gap.status === 'dismissed') return 'repeat';
  return { code: 'invalid_state', message: `This balance gap is already ${gap.status}.`, details: { status: gap.status } };
}

export type GapPayment = { id: string; status: string; sandbox: boolean; amountFinal: bigint; amountRequested: bigint; cardId: string };

/** A payment the gap's money may confirm: one of its candidates (live, not confirmed, the gap's amount, the card's scope, the time window). */
export function gapPaymentRefusal(gap: BalanceGap, payment: GapPayment, candidateIds: readonly string[]): Refusal | null {
  if (gap.amount <= 0n) return { code: 'invalid_state', message: 'Only a gap of missing deposits (a positive amount) can confirm a payment; dismiss this one with a note.', details: { amount: gap.amount.toString() } };
  if (payment.sandbox) return { code: 'invalid_state', message: 'A balance gap is real money: it can confirm only a live payment.', details: { status: payment.status } };
  if (!(TRANSITIONS.attach.from as readonly string[]).includes(payment.status)) {
    return { code: 'invalid_state', message: `A gap can confirm a payment that is ${TRANSITIONS.attach.from.join(', ')}; this one is ${payment.status}.`, details: { status: payment.status } };
  }
  if (payment.amountFinal !== gap.amount && payment.amountRequested !== gap.amount) {
    return {
      code: 'amount_mismatch',
      message: `The gap is ${gap.amount} rials; the payment asks for ${payment.amountFinal} (or ${payment.amountRequested} without its code).`,
      details: { amount: gap.amount.toString(), amountFinal: payment.amountFinal.toString(), amountRequested: payment.amountRequested.toString() },
    };
  }
  if (!candidateIds.includes(payment.id)) {
    return { code: 'invalid_state', message: 'The payment is not one of the gap’s candidates (a live payment of the card’s phone, created at most 48 h before the gap).', details: { status: payment.status } };
  }
  return null;
}

/**
 * After the decision, the held message that revealed the gap is the chain's reference (the merchant
 * has looked at the bank), and the messages waiting behind it follow. When the merchant gave the
 * gap's money to a payment (`matchOwn`), a deposit of its own is matched as if it had arrived in
 * order; a dismissal matches nothing: a careless dismissal of a forged message's gap must not let
 * that message confirm the payment it names (it stays for the merchant to attach or dismiss). Then
 * the card's gaps are found again from the new head.
 */
export async function advanceChainPast(tx: Tx, jobs: JobQueue, gap: BalanceGap, message: BankMessage, matchOwn: boolean): Promise<void> {
  const card = await chainCardOf(tx, gap.cardId);
  if (await trustMessage(tx, message.id)) {
    // Trusted on the merchant's word, not the engine's (the chain's evidence rules): recorded as decided.
    await tx.bankMessage.update({ where: { id: message.id }, data: { decidedAt: new Date() } });
    const at = message.bankTime ?? message.receivedAt;
    if (matchOwn && message.direction === 'deposit' && message.amount !== null && message.deviceId && (message.status === 'needs_review' || message.status === 'unmatched')) {
      const result = await matchDeposit(tx, jobs, message.id, deviceScope(message.deviceId), [card], { amount: message.amount, at, simulated: false, review: null });
      await settle(tx, message.id, result.status, result.statusReason, result);
    }
    if (message.balance !== null) await trustFollowers(tx, jobs, card, { balance: message.balance, at });
  }
  await syncBalanceGaps(tx, jobs, card);
}

/**
 * After the merchant dismissed or refunded a held message: its card's gaps follow at once (a gap it
 * ended is dismissed with it); answers those gaps' audit events, for the decision's own.
 */
export async function syncGapsOfMessage(tx: Tx, jobs: JobQueue, message: { cardId: string | null }, status: 'dismissed' | 'refunded') {
  if (!message.cardId) return [];
  await lockCardChain(tx, message.cardId);
  const card = await tx.card.findUniqueOrThrow({ where: { id: message.cardId }, select: { id: true, projectId: true, merchantId: true } });
  return (await syncBalanceGaps(tx, jobs, card)).map((gap) => gapDismissedWithMessage(gap, status));
}
