import { balanceAfter, type ChainLink } from './chain.js';
import type { Direction } from '../sms/types.js';

/**
 * Balance gaps (docs/exceptions.md "Lost messages: balance gaps"), as pure decisions. A message
 * held for its balance (`balance_mismatch`: its sender is the bank's, its balance does not follow
 * the card's chain) is the end of a gap when it follows no other held message: the difference
 * between its balance before its own movement and the chain's head is money whose SMS never came
 * (positive: deposits) or came from no bank. A held message that follows another held one waits
 * behind that one's gap, so one loss is one gap however many messages arrive after it, in
 * whatever order. The store (store/gaps.ts) reads the held messages and keeps the open gaps equal
 * to what `gapEnds` decides.
 */

export const GAP_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type GapStatus = (typeof GAP_STATUSES)[number];

/** A message of the card held only for its balance, as the gap rules see it. */
export type HeldMessage = { id: string; direction: Direction; amount: bigint; balance: bigint; at: Date; arrivedAt: Date };

/** The gap's amount: the balance before `end`'s own movement, less the reference's. Signed rials. */
export function gapAmount(reference: Pick<ChainLink, 'balance'>, end: Pick<HeldMessage, 'direction' | 'amount' | 'balance'>): bigint {
  const before = end.balance - (balanceAfter(0n, end) ?? 0n);
  return before - reference.balance;
}

/** Whether `next` follows `previous` in the bank's order (previous ± amount = new, not earlier). */
function heldFollows(next: HeldMessage, previous: HeldMessage): boolean {
  return next.at.getTime() >= previous.at.getTime() && balanceAfter(previous.balance, next) === next.balance;
}

/** The same movement twice (a re-send, a second phone): one place in the chain. */
function sameMovement(a: HeldMessage, b: HeldMessage): boolean {
  return a.direction === b.direction && a.amount === b.amount && a.balance === b.balance && a.at.getTime() === b.at.getTime();
}

const byArrival = (a: HeldMessage, b: HeldMessage) => a.arrivedAt.getTime() - b.arrivedAt.getTime() || a.id.localeCompare(b.id);

/**
 * Of a card's held messages, the gap ends: those that follow no other held message (a copy of one
 * counts once, the first to arrive standing for it).
 */
export function gapEnds(held: readonly HeldMessage[]): HeldMessage[] {
  const firsts = [...held].sort(byArrival).filter((m, i, all) => !all.slice(0, i).some((o) => sameMovement(o, m)));
  return firsts.filter((m) => !firsts.some((o) => o !== m && !sameMovement(o, m) && heldFollows(m, o)));
}
