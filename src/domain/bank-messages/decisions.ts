import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import type { BankMessage, Prisma } from '../../generated/prisma/client.js';
import type { Actor } from '../auth/actor.js';
import { callerScope, requireDecider } from '../auth/scope.js';
import { recordAudit } from '../audit/audit.js';
import type { Deps } from '../deps.js';
import { decide, type Answer, type Idempotent } from '../payments/idempotency.js';
import { parseInput, uuidSchema } from '../validation.js';
import { trustMessage } from './store/evidence.js';
import { lockMessageRow } from './store/messages.js';
import { releaseReviewFlags } from '../matching/review-flags.js';
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

/** Locks a message the caller can see, for a decision on it; any other id is not found. */
export async function lockVisibleMessage(tx: Tx, actor: Actor, id: string): Promise<BankMessage> {
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Bank message');
  const locked = await lockMessageRow(tx, id);
  const message = locked ? await tx.bankMessage.findFirst({ where: { AND: [{ id }, visibleMessages(actor)] } }) : null;
  if (!message) throw AppError.notFound('Bank message');
  return message;
}

/** The merchant's decision that a message needs nothing more (no payment to confirm for it). */
export async function dismissBankMessage(deps: Deps, actor: Actor, id: string, note: unknown): Promise<BankMessage>;
export async function dismissBankMessage(deps: Deps, actor: Actor, id: string, note: unknown, idem: Idempotent<BankMessage> | undefined): Promise<BankMessage | Answer>;
export async function dismissBankMessage(deps: Deps, actor: Actor, id: string, note: unknown, idem?: Idempotent<BankMessage>): Promise<BankMessage | Answer> {
  callerScope(actor);
  requireDecider(actor);
  const checkedNote = parseInput(z.string().trim().max(500, 'must be at most 500 characters').nullish(), note) ?? null;
  return decide(deps, actor, idem, async (tx) => {
    const message = await lockVisibleMessage(tx, actor, id);
    if (!(DECIDABLE_STATUSES as readonly string[]).includes(message.status)) {
      throw new AppError('invalid_state', `Only messages that are ${DECIDABLE_STATUSES.join(', ')} can be dismissed.`, { status: message.status });
    }
    const dismissed = await tx.bankMessage.update({
      where: { id: message.id },
      data: { status: 'dismissed', reviewReason: null, decisionNote: checkedNote, decidedAt: new Date(), statusReason: 'Dismissed by the merchant.' },
    });
    await releaseReviewFlags(tx, message);
    await recordAudit(tx, actor, {
      action: 'bank_message.dismissed',
      subjectType: 'bank_message',
      subjectId: message.id,
      projectId: message.projectId,
      merchantId: message.merchantId,
      note: checkedNote,
      changes: { status: { from: message.status, to: 'dismissed' } },
    });
    return dismissed;
  });
}

/**
 * The deposit a manual confirmation settles: when exactly one message is waiting on this payment
 * for review, it is the payment's money.
 */
export async function reviewedDeposit(tx: Tx, paymentId: string): Promise<{ id: string; amount: bigint | null; flaggedPaymentIds: string[] } | null> {
  const waiting = await tx.bankMessage.findMany({
    where: { status: 'needs_review', OR: [{ paymentId }, { flaggedPaymentIds: { has: paymentId } }] },
    select: { id: true, amount: true, flaggedPaymentIds: true },
    take: 2,
  });
  return waiting.length === 1 ? waiting[0]! : null;
}

/**
 * The reviewed deposit becomes the confirming message, and evidence for the ones after it. The
 * flags it set on other payments are cleared by the caller before the confirmation charges the fee
 * (`releaseReviewFlags`): payments' rows are locked before the merchant's.
 */
export async function settleReviewedMessage(tx: Tx, message: { id: string }, paymentId: string): Promise<void> {
  await tx.bankMessage.update({
    where: { id: message.id },
    data: { status: 'matched', paymentId, reviewReason: null, statusReason: 'Confirmed manually by the merchant after review.', decidedAt: new Date() },
  });
  // A deposit the merchant confirmed after checking the bank becomes evidence for the ones after it.
  await trustMessage(tx, message.id);
}
