import type { Tx } from '../../db/prisma.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { queueDeliveries } from '../webhooks/deliveries.js';
import { follows } from './chain.js';
import { gapAmount, gapEnds, type HeldMessage } from './gaps.js';
import { chainHeadUntil } from './store/evidence.js';
import { closeExplained, dismissWithMessage, dropGap, explainingMessage, gapCandidates, heldMessagesOf, insertGap, isTrusted, lockOpenGaps, moveGap, resolvedGapFor, type GapPlace } from './store/gaps.js';

/**
 * Keeps a card's open balance gaps equal to what its chain says now (docs/exceptions.md "Lost
 * messages: balance gaps"), under the card's chain lock, after each message of the card and each
 * decision that moves its chain. A gap is recorded once (one per place in the chain: re-sends and
 * copies find it taken); a gap whose end a late SMS explained closes by itself; a gap's end found
 * earlier in the bank's order, or its start found later, moves the gap rather than making another.
 * Resolved and dismissed gaps are the merchant's and never change here. Answers the gaps it
 * dismissed because the merchant dismissed or refunded their end message: the caller audits them.
 */
export async function syncBalanceGaps(tx: Tx, jobs: JobQueue, card: { id: string; projectId: string; merchantId: string }): Promise<DismissedGap[]> {
  const held = await heldMessagesOf(tx, card.id);
  const open = await lockOpenGaps(tx, card.id);
  const dismissed: DismissedGap[] = [];
  if (held.length === 0 && open.length === 0) return dismissed;

  const wanted = new Map<string, GapPlace>();
  for (const end of gapEnds(held)) {
    const place = await placeOf(tx, card.id, end);
    if (place) wanted.set(end.id, place);
  }
  const heldIds = new Set(held.map((m) => m.id));
  for (const gap of open) {
    const place = wanted.get(gap.toMessageId);
    if (place) {
      wanted.delete(gap.toMessageId);
      if (place.amount !== gap.amount || place.fromMessageId !== gap.fromMessageId) await moveGap(tx, gap.id, place);
      continue;
    }
    if (await isTrusted(tx, gap.toMessageId)) {
      // Trusted because a late SMS now explains it; trusted by the merchant's attach, the money is still unexplained.
      const explainedBy = await explainingMessage(tx, gap);
      if (explainedBy) await closeExplained(tx, gap.id, explainedBy);
      continue;
    }
    if (!heldIds.has(gap.toMessageId)) {
      // The merchant dismissed the message itself (not genuine, or nothing to decide): its gap goes with it.
      if (await dismissWithMessage(tx, gap)) dismissed.push({ id: gap.id, projectId: card.projectId, merchantId: card.merchantId, toMessageId: gap.toMessageId });
      continue;
    }
    // Its end now waits behind an earlier held message: the gap is that one's, from the same start.
    const earlier = [...wanted.entries()].find(([, p]) => p.fromMessageId === gap.fromMessageId);
    if (earlier && (await moveGap(tx, gap.id, earlier[1]))) wanted.delete(earlier[0]);
    else await dropGap(tx, gap.id);
  }
  for (const place of wanted.values()) {
    const id = await insertGap(tx, card, place);
    if (id) await recordGapEvent(tx, jobs, id);
  }
  return dismissed;
}

/** A gap dismissed with its end message (the merchant dismissed or refunded that message). */
export type DismissedGap = { id: string; projectId: string; merchantId: string; toMessageId: string };

/**
 * The audit event of a gap dismissed with its end message, in the decision's transaction: the gap's
 * own history says who ended it and why, beside the message's event.
 */
export function gapDismissedWithMessage(gap: DismissedGap, messageStatus: 'dismissed' | 'refunded') {
  return {
    action: 'balance_gap.dismissed' as const,
    subjectType: 'balance_gap' as const,
    subjectId: gap.id,
    projectId: gap.projectId,
    merchantId: gap.merchantId,
    note: `Its message ${gap.toMessageId} was ${messageStatus} by the merchant.`,
    changes: { status: { from: 'open', to: 'dismissed' } },
  };
}

/** Where a held message ends a gap: from the chain's head before it; null when it has no reference or follows it. */
async function placeOf(tx: Tx, cardId: string, end: HeldMessage): Promise<GapPlace | null> {
  const head = await chainHeadUntil(tx, cardId, end.at, end.id);
  if (!head || follows(end, head)) return null;
  const amount = gapAmount(head, end);
  if (amount === 0n) return null;
  return { toMessageId: end.id, toAt: end.at, toBalance: end.balance, fromMessageId: head.id, fromBalance: head.balance, amount };
}

/**
 * `card.balance_gap` (opt-in; docs/exceptions.md): a gap was found, with its amount and the payments
 * it could be. It names the held message that revealed it, in the gap's own transaction.
 */
async function recordGapEvent(tx: Tx, jobs: JobQueue, gapId: string): Promise<void> {
  const gap = await tx.balanceGap.findUniqueOrThrow({ where: { id: gapId } });
  const candidates = await gapCandidates(tx, gap);
  const payload = {
    event: 'card.balance_gap',
    gapId: gap.id,
    projectId: gap.projectId,
    cardId: gap.cardId,
    amount: gap.amount.toString(),
    fromMessageId: gap.fromMessageId,
    toMessageId: gap.toMessageId,
    detectedAt: gap.detectedAt.toISOString(),
    candidatePaymentIds: candidates.map((c) => c.id),
  };
  const event = await tx.event.create({ data: { projectId: gap.projectId, bankMessageId: gap.toMessageId, type: 'card.balance_gap', payload: payload as Prisma.InputJsonObject } });
  await queueDeliveries(tx, jobs, event);
}

/**
 * A late deposit SMS whose money the merchant already gave to a payment by resolving its gap: it is
 * that payment's message (matched to it, the gap marked explained) and confirms nothing more; null
 * when it is no resolved gap's money.
 */
export async function matchResolvedGap(
  tx: Tx,
  messageId: string,
  card: { id: string },
  deposit: { amount: bigint; at: Date },
): Promise<{ paymentId: string; projectId: string; gapId: string } | null> {
  const gap = await resolvedGapFor(tx, card.id, deposit);
  if (!gap) return null;
  await tx.balanceGap.update({ where: { id: gap.id }, data: { explainedByMessageId: messageId } });
  return { paymentId: gap.paymentId, projectId: gap.projectId, gapId: gap.id };
}
