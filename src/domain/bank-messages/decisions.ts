import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
import { trustMessage } from './evidence-store.js';
import { DECIDABLE_STATUSES } from './messages.js';

/**
 * Which bank messages a caller sees: a merchant all of its own; a project those resolved to it and
 * those from devices that hold one of its cards (an unmatched deposit has no project yet).
 */
export function visibleMessages(actor: Actor): Prisma.BankMessageWhereInput {
  const caller = requireActor(actor, 'merchant', 'project');
  if (caller.kind === 'merchant') return { merchantId: caller.merchantId };
  return {
    merchantId: caller.merchantId,
    OR: [{ projectId: caller.projectId }, { device: { cards: { some: { projectId: caller.projectId } } } }],
  };
}


/** The merchant's decision that a message needs nothing more (no payment to confirm for it). */
export async function dismissBankMessage(deps: Deps, actor: Actor, id: string, note: unknown) {
  requireActor(actor, 'project');
  const checkedNote = parseInput(z.string().trim().max(500).nullish(), note);
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Bank message');
  return deps.prisma.$transaction(async (tx) => {
    const message = await tx.bankMessage.findFirst({ where: { AND: [{ id }, visibleMessages(actor)] } });
    if (!message) throw AppError.notFound('Bank message');
    const { count } = await tx.bankMessage.updateMany({
      where: { id, status: { in: [...DECIDABLE_STATUSES] } },
      data: { status: 'dismissed', decisionNote: checkedNote ?? null, decidedAt: new Date(), statusReason: 'Dismissed by the merchant.' },
    });
    if (count === 0) {
      throw new AppError('invalid_state', `Only messages that are ${DECIDABLE_STATUSES.join(', ')} can be dismissed.`, { status: message.status });
    }
    return tx.bankMessage.findUniqueOrThrow({ where: { id } });
  });
}

/**
 * A manual confirmation settles the deposit that prompted the review: when exactly one message is
 * waiting on this payment, it becomes the confirming message.
 */
export async function settleReviewedMessage(tx: Tx, paymentId: string): Promise<string | null> {
  const waiting = await tx.bankMessage.findMany({ where: { paymentId, status: 'needs_review' }, select: { id: true } });
  if (waiting.length !== 1) return null;
  const messageId = waiting[0]!.id;
  await tx.bankMessage.update({
    where: { id: messageId },
    data: { status: 'matched', statusReason: 'Confirmed manually by the merchant after review.', decidedAt: new Date() },
  });
  // A deposit the merchant confirmed after checking the bank becomes evidence for the ones after it.
  await trustMessage(tx, messageId);
  return messageId;
}
