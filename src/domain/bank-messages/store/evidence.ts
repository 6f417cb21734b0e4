import type { Db, Tx } from '../../../db/prisma.js';
import { holderOfAmount } from '../../payments/store/holds.js';
import type { Direction } from '../../sms/types.js';
import { chainHead, chainReferences, type ChainLink, type OpeningBalance } from '../chain.js';
import type { BankFacts, TrustedMessage } from '../evidence.js';

/**
 * What the evidence decisions (evidence.ts) need from the history of a merchant's messages, read
 * inside the message's transaction. Only trusted messages are read: an untrusted one is never a
 * chain reference nor an original.
 */

type Row = {
  id: string;
  card_id: string | null;
  bank_code: string;
  direction: BankFacts['direction'];
  amount: bigint | null;
  balance: bigint | null;
  bank_time: Date | null;
  reference: string | null;
  body_sha256: string;
};

const toTrusted = (r: Row): TrustedMessage => ({
  id: r.id,
  cardId: r.card_id,
  bankCode: r.bank_code,
  direction: r.direction,
  amount: r.amount,
  balance: r.balance,
  bankTime: r.bank_time,
  reference: r.reference,
  bodySha256: r.body_sha256,
});

const CHAIN_KEY = 'evidence:card:';
const chainKey = (cardId: string) => `${CHAIN_KEY}${cardId}`;

/**
 * Serialises the evidence decisions of messages about the same cards or the same bank reference,
 * so two copies processed at once agree on which is first (the unique indexes are the backstop),
 * and two messages of one card read the chain the other left. Locks are taken in one order (cards
 * by id, then the reference) so they cannot deadlock.
 */
export async function lockEvidence(tx: Tx, merchantId: string, cardIds: readonly string[], facts: Pick<BankFacts, 'bankCode' | 'reference' | 'amount'>): Promise<void> {
  const keys = [...new Set(cardIds)].sort().map(chainKey);
  if (facts.reference !== null && facts.amount !== null) keys.push(`evidence:ref:${merchantId}:${facts.bankCode}:${facts.reference}:${facts.amount}`);
  for (const key of keys) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 17))`;
}

/** Trusted earlier deposits that could be this one: same bank reference and amount, or same card and amount. */
export async function possibleOriginals(
  tx: Tx,
  merchantId: string,
  messageId: string,
  cardIds: readonly string[],
  facts: Pick<BankFacts, 'direction' | 'amount' | 'bankCode' | 'reference'>,
): Promise<TrustedMessage[]> {
  if (facts.direction !== 'deposit' || facts.amount === null) return [];
  const rows = await tx.$queryRaw<Row[]>`
    SELECT id, card_id, bank_code, direction, amount, balance, bank_time, reference, body_sha256 FROM bank_messages
    WHERE merchant_id = ${merchantId}::uuid AND trusted AND direction = 'deposit' AND duplicate_of_id IS NULL
      AND id <> ${messageId}::uuid AND amount = ${facts.amount}
      AND ((bank_code = ${facts.bankCode} AND reference = ${facts.reference}) OR card_id = ANY(${[...cardIds]}::uuid[]))
    ORDER BY created_at, id`;
  return rows.map(toTrusted);
}

/**
 * The card's chain lock alone (the key `lockEvidence` takes first), for a change of the chain's
 * reference outside a message (the opening balance, `updateCard`).
 */
export async function lockCardChain(tx: Tx, cardId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${chainKey(cardId)}, 17))`;
}

const NO_MESSAGE = '00000000-0000-0000-0000-000000000000';

/**
 * What chain.ts needs to place a message of bank time `at` (the head: `at` null): the card's
 * trusted messages with a balance of that bank time and of the two latest bank times before it
 * (the latest one's order is found from the one before it), in arrival order, and the card's
 * opening balance. `except` is the message being placed.
 */
async function chainOf(db: Db, cardId: string, at: Date | null, except: string | null): Promise<{ links: ChainLink[]; opening: OpeningBalance | null }> {
  const until = at ?? 'infinity';
  const other = except ?? NO_MESSAGE;
  // Both reads walk bank_messages_card_chain_idx (card, bank time) backwards: a long chain costs no more.
  const rows = await db.$queryRaw<{ id: string; direction: Direction; amount: bigint | null; balance: bigint; at: Date; created_at: Date }[]>`
    SELECT id, direction, amount, balance, coalesce(bank_time, received_at) AS at, created_at FROM bank_messages
    WHERE card_id = ${cardId}::uuid AND trusted AND balance IS NOT NULL AND id <> ${other}::uuid
      AND coalesce(bank_time, received_at) <= ${until}::timestamptz
      AND coalesce(bank_time, received_at) >= coalesce((
        SELECT min(t) FROM (
          SELECT DISTINCT coalesce(bank_time, received_at) AS t FROM bank_messages
          WHERE card_id = ${cardId}::uuid AND trusted AND balance IS NOT NULL AND id <> ${other}::uuid
            AND coalesce(bank_time, received_at) < ${until}::timestamptz
          ORDER BY t DESC LIMIT 2) latest), ${until}::timestamptz)
    ORDER BY created_at, id`;
  const card = await db.card.findUnique({ where: { id: cardId }, select: { openingBalance: true, openingBalanceAt: true } });
  const opening = card?.openingBalance != null && card.openingBalanceAt ? { balance: card.openingBalance, at: card.openingBalanceAt } : null;
  return { links: rows.map((r) => ({ id: r.id, direction: r.direction, amount: r.amount, balance: r.balance, at: r.at, arrivedAt: r.created_at })), opening };
}

/** The chain links a message of the card at bank time `at` may follow (chain.ts `chainReferences`); read under `lockEvidence`. */
export async function chainReferencesOf(tx: Tx, cardId: string, messageId: string, at: Date): Promise<ChainLink[]> {
  const { links, opening } = await chainOf(tx, cardId, at, messageId);
  return chainReferences(links, opening, at);
}

/** The chain's head among the links of bank time up to `at`, `except` left out: what a gap ending at that message is measured from. */
export async function chainHeadUntil(db: Db, cardId: string, at: Date, except: string): Promise<ChainLink | null> {
  const { links, opening } = await chainOf(db, cardId, at, except);
  return chainHead(links, opening);
}

/** The card's current reference, the chain's head in the bank's order (`Card.lastKnownBalance`); null when none. */
export async function chainHeadOf(db: Db, cardId: string): Promise<ChainLink | null> {
  const { links, opening } = await chainOf(db, cardId, null, null);
  return chainHead(links, opening);
}

/**
 * Makes a message held only for its balance evidence for the ones after it (chain reference,
 * original of later copies): when the merchant confirmed its payment after checking the bank, or
 * when the message it follows has now arrived. A message from an unknown sender, of another
 * bank's layout or read only by the generic reader never becomes evidence. Refused (false) when it is about no single card, or repeats a
 * message already trusted (the keys of the unique indexes), so the caller's transaction never fails.
 */
export async function trustMessage(tx: Tx, messageId: string): Promise<boolean> {
  // A new link of the chain: under the card's chain lock, as a message being checked reads it
  // (already held on the intake path; a merchant's attach or confirmation takes it here).
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${CHAIN_KEY}::text || card_id::text, 17)) FROM bank_messages WHERE id = ${messageId}::uuid AND card_id IS NOT NULL`;
  const updated = await tx.$executeRaw`
    UPDATE bank_messages m SET trusted = true, evidence_problem = NULL
    WHERE m.id = ${messageId}::uuid AND NOT m.trusted AND m.card_id IS NOT NULL AND m.amount IS NOT NULL AND m.simulated = false
      AND m.duplicate_of_id IS NULL AND m.direction IN ('deposit', 'withdrawal') AND coalesce(m.evidence_problem, 'balance_mismatch') = 'balance_mismatch'
      AND NOT EXISTS (
        SELECT 1 FROM bank_messages o
        WHERE o.trusted AND o.direction = 'deposit' AND m.direction = 'deposit' AND o.duplicate_of_id IS NULL AND o.amount = m.amount AND o.id <> m.id
          AND ((o.merchant_id = m.merchant_id AND o.bank_code = m.bank_code AND o.reference = m.reference)
            OR (o.card_id = m.card_id AND o.balance = m.balance AND coalesce(o.bank_time, '-infinity') = coalesce(m.bank_time, '-infinity'))))`;
  return updated === 1;
}

export type WaitingMessage = { id: string; deviceId: string; direction: string; amount: bigint; balance: bigint; at: Date; status: string };

/**
 * The messages of the card held only for their balance that follow `tip` (tip's balance plus
 * their deposit, or minus their withdrawal) and are not older than it: they arrived before the
 * message they follow. Oldest first, at most `limit`, locked.
 */
export async function waitingFollowers(tx: Tx, cardId: string, tip: { balance: bigint; at: Date }, limit: number): Promise<WaitingMessage[]> {
  const rows = await tx.$queryRaw<{ id: string; device_id: string; direction: string; amount: bigint; balance: bigint; at: Date; status: string }[]>`
    SELECT id, device_id, direction, amount, balance, coalesce(bank_time, received_at) AS at, status FROM bank_messages
    WHERE card_id = ${cardId}::uuid AND NOT trusted AND evidence_problem = 'balance_mismatch' AND duplicate_of_id IS NULL AND device_id IS NOT NULL
      AND amount IS NOT NULL AND balance IS NOT NULL AND coalesce(bank_time, received_at) >= ${tip.at}::timestamptz
      AND balance = ${tip.balance}::bigint + CASE direction WHEN 'deposit' THEN amount WHEN 'withdrawal' THEN -amount END
    ORDER BY coalesce(bank_time, received_at), created_at
    LIMIT ${limit}
    FOR UPDATE`;
  return rows.map((row) => ({ id: row.id, deviceId: row.device_id, direction: row.direction, amount: row.amount, balance: row.balance, at: row.at, status: row.status }));
}

/** The cards of the phone that forwarded a message, as the evidence and matching steps need them. */
export function phoneCards(tx: Tx, deviceId: string) {
  return tx.card.findMany({ where: { deviceId }, select: { id: true, projectId: true, bankCode: true, cardNumber: true, accountNumber: true, smsSender: true } });
}

/** When the SMS could be about several cards, the one whose live payment holds this amount, if any. */
export async function heldCard<C extends { id: string }>(tx: Tx, scope: string, amount: bigint, cards: C[]): Promise<C | null> {
  if (cards.length === 0) return null;
  const hold = await holderOfAmount(tx, scope, amount);
  return cards.find((c) => c.id === hold?.cardId) ?? null;
}
