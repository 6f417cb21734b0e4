import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { deviceScope } from '../cards/selection.js';
import { matchDeposit, type ScopeCard } from '../matching/match-deposit.js';
import { syncBalanceGaps } from './gap-sync.js';
import { settle } from './messages.js';
import { trustMessage, waitingFollowers } from './store/evidence.js';

// A phone's backlog that arrived out of order is caught up in one go, within reason.
const MAX_FOLLOWERS = 20;

/**
 * Out-of-order delivery: a message held only for its balance, because it arrived before the
 * message it follows, is trusted once that one is, and a deposit among them is matched again as if
 * it had arrived in order (its payment's hold is still there until the late window ends). Every
 * follower is taken, not only the first: within one bank minute a movement and its reversal make
 * two held messages follow one balance. Also run when a merchant's decision makes a held message
 * the chain's reference (resolving or dismissing its balance gap).
 */
export async function trustFollowers(tx: Tx, jobs: JobQueue, card: ScopeCard, tip: { balance: bigint; at: Date }): Promise<void> {
  const tips = [tip];
  let trusted = 0;
  for (let current = tips.shift(); current && trusted < MAX_FOLLOWERS; current = tips.shift()) {
    for (const next of await waitingFollowers(tx, card.id, current, MAX_FOLLOWERS - trusted)) {
      if (!(await trustMessage(tx, next.id))) continue;
      trusted += 1;
      tips.push(next);
      if (next.direction === 'deposit' && (next.status === 'needs_review' || next.status === 'unmatched')) {
        const result = await matchDeposit(tx, jobs, next.id, deviceScope(next.deviceId), [card], { amount: next.amount, at: next.at, simulated: false, review: null });
        await settle(tx, next.id, result.status, result.statusReason, result);
      }
    }
  }
}

/**
 * A held message the merchant's decision made evidence (attached to a payment, or confirmed with it
 * after review): the messages waiting behind it follow it now, as if they had arrived after it, and
 * the card's gaps are found again (a gap it ended stays open: the lost money is still unexplained).
 * Without this, a message held behind it would stay held with no gap to show it (money simulation
 * seeds 285500731, 2014959057). Nothing happens when the message could not be trusted.
 */
export async function trustOnDecision(tx: Tx, jobs: JobQueue, message: { id: string; cardId: string | null }): Promise<void> {
  if (!message.cardId || !(await trustMessage(tx, message.id))) return;
  const card = await chainCardOf(tx, message.cardId);
  const trusted = await tx.bankMessage.findUniqueOrThrow({ where: { id: message.id }, select: { balance: true, bankTime: true, receivedAt: true } });
  if (trusted.balance !== null) await trustFollowers(tx, jobs, card, { balance: trusted.balance, at: trusted.bankTime ?? trusted.receivedAt });
  await syncBalanceGaps(tx, jobs, card);
}

/** A card as the chain's decisions need it: its scope for matching, and its merchant for the gaps. */
export function chainCardOf(tx: Tx, cardId: string) {
  return tx.card.findUniqueOrThrow({ where: { id: cardId }, select: { id: true, projectId: true, merchantId: true, cardNumber: true, accountNumber: true, smsSender: true } });
}
