import type { Direction } from '../sms/types.js';

/**
 * A card's balance chain in the bank's order, not arrival (docs/decisions.md "Opening balance and
 * the chain's order"; threats and answers in docs/security.md), as pure decisions. The store
 * (store/evidence.ts `chainLinks`) reads the links these functions need; the evidence check, the
 * card's `lastKnownBalance` and the property tests all ask them.
 *
 * A link is a trusted message with a balance, or the card's opening balance. Bank times are
 * minutes: within one bank minute the order is the balances' own (the link another link's balance
 * follows from came first), never the order the SMS arrived in.
 */

export type ChainLink = {
  /** The message; null for the card's opening balance. */
  id: string | null;
  direction: Direction | null;
  amount: bigint | null;
  balance: bigint;
  /** Its place in the bank's order: the bank time (the arrival when the SMS has none). */
  at: Date;
  /** When it arrived (the opening balance: when it was given): the last resort between links the balances cannot order. */
  arrivedAt: Date;
};

/** The balance the merchant read in the bank's app, and when (`Card.openingBalance`, `openingBalanceAt`). */
export type OpeningBalance = { balance: bigint; at: Date };

const MINUTE_MS = 60_000;

/**
 * The opening balance as a link. It takes the bank minute it was given in: a deposit of that
 * minute (bank times carry no seconds) may follow it, whichever happened first within the minute.
 */
export function openingLink(opening: OpeningBalance): ChainLink {
  const minute = Math.floor(opening.at.getTime() / MINUTE_MS) * MINUTE_MS;
  return { id: null, direction: null, amount: null, balance: opening.balance, at: new Date(minute), arrivedAt: opening.at };
}

/** The balance a movement leaves, given the one before it; null when the movement does not say. */
export function balanceAfter(previous: bigint, movement: { direction: Direction | null; amount: bigint | null }): bigint | null {
  if (movement.amount === null) return null;
  if (movement.direction === 'deposit') return previous + movement.amount;
  if (movement.direction === 'withdrawal') return previous - movement.amount;
  return null;
}

/** Whether `next`'s balance is explained by `previous`'s (previous ± amount = new). */
export function follows(next: { direction: Direction | null; amount: bigint | null; balance: bigint | null }, previous: Pick<ChainLink, 'balance'>): boolean {
  return next.balance !== null && balanceAfter(previous.balance, next) === next.balance;
}

const byArrival = (a: ChainLink, b: ChainLink) => a.arrivedAt.getTime() - b.arrivedAt.getTime();

/** Past this many links in one bank minute, the walk below is not tried (it is exponential at worst). */
const MAX_WALK = 10;

/**
 * A walk through every link of `group` from `from`, each link's balance following the one before
 * it, trying links in arrival order; null when there is none.
 */
function walk(group: readonly ChainLink[], from: ChainLink | null, path: ChainLink[]): ChainLink[] | null {
  if (path.length === group.length) return path;
  for (const link of group) {
    if (path.includes(link) || (from !== null && !follows(link, from))) continue;
    const found = walk(group, link, [...path, link]);
    if (found) return found;
  }
  return null;
}

/**
 * Of links sharing one bank time, the one latest in the bank's order: the end of a walk through
 * all of them from the head before the minute (from the opening balance, when it was given in
 * this minute), each link's balance following the one before it. That orders even a movement and
 * its reversal, whose balances follow each other both ways. When no such walk exists (a link the
 * merchant attached, a chain that skipped), a link no other link's balance follows from; when the
 * balances cannot tell, the last to arrive.
 */
function lastOfMinute(group: readonly ChainLink[], previous: ChainLink | null): ChainLink {
  const arrived = [...group].sort(byArrival);
  const opening = arrived.find((l) => l.id === null);
  const start = opening ?? previous;
  const path = start && arrived.length <= MAX_WALK ? walk(arrived, start, opening ? [opening] : []) : null;
  if (path) return path.at(-1)!;
  const ends = arrived.filter((l) => !group.some((o) => o !== l && follows(o, l)));
  return (ends.length > 0 ? ends : arrived).at(-1)!;
}

function withOpening(links: readonly ChainLink[], opening: OpeningBalance | null): readonly ChainLink[] {
  return opening ? [...links, openingLink(opening)] : links;
}

/**
 * The chain's head: the link latest in the bank's order among those before `before` (all of them
 * when null); null when the card has none (trust on first use). The bank minutes in `links` are
 * taken oldest first, each minute's head found from the one before it; the store reads the last
 * few minutes, which is all the latest one's order depends on.
 */
export function chainHead(links: readonly ChainLink[], opening: OpeningBalance | null, before: Date | null = null): ChainLink | null {
  const all = withOpening(links, opening);
  const earlier = before === null ? all : all.filter((l) => l.at.getTime() < before.getTime());
  const minutes = [...new Set(earlier.map((l) => l.at.getTime()))].sort((a, b) => a - b);
  let head: ChainLink | null = null;
  for (const minute of minutes) head = lastOfMinute(earlier.filter((l) => l.at.getTime() === minute), head);
  return head;
}

/**
 * The links a message of bank time `at` may follow: the head before its bank time (the opening
 * balance when no trusted link is earlier), and every link of its own bank time, whichever
 * arrived first. Empty only when the card has no reference at all: then the first trusted
 * message becomes one (trust on first use).
 */
export function chainReferences(links: readonly ChainLink[], opening: OpeningBalance | null, at: Date): ChainLink[] {
  const sameMinute = withOpening(links, opening).filter((l) => l.at.getTime() === at.getTime());
  const before = chainHead(links, opening, at) ?? (opening ? openingLink(opening) : null);
  return before && !sameMinute.some((l) => l.id === before.id) ? [before, ...sameMinute] : sameMinute;
}
