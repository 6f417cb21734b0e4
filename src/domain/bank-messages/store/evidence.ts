import type { Tx } from '../../../db/prisma.js';
import { holderOfAmount } from '../../payments/store/holds.js';
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

/**
 * Serialises the evidence decisions of messages about the same cards or the same bank reference,
 * so two copies processed at once agree on which is first (the unique indexes are the backstop).
 * Locks are taken in one order (cards by id, then the reference) so they cannot deadlock.
 */
export async function lockEvidence(tx: Tx, merchantId: string, cardIds: readonly string[], facts: Pick<BankFacts, 'bankCode' | 'reference' | 'amount'>): Promise<void> {
  const keys = [...new Set(cardIds)].sort().map((id) => `evidence:card:${id}`);
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

/** The card's latest trusted message with a balance before `at` (bank time, then arrival order). */
export async function previousTrusted(tx: Tx, cardId: string, messageId: string, at: Date, createdAt: Date): Promise<TrustedMessage | null> {
  const [row] = await tx.$queryRaw<Row[]>`
    SELECT id, card_id, bank_code, direction, amount, balance, bank_time, reference, body_sha256 FROM bank_messages
    WHERE card_id = ${cardId}::uuid AND trusted AND balance IS NOT NULL AND id <> ${messageId}::uuid
      AND (coalesce(bank_time, received_at), created_at) < (${at}::timestamptz, ${createdAt}::timestamptz)
    ORDER BY coalesce(bank_time, received_at) DESC, created_at DESC
    LIMIT 1`;
  return row ? toTrusted(row) : null;
}

/**
 * Makes a message held only for its balance evidence for the ones after it (chain reference,
 * original of later copies): when the merchant confirmed its payment after checking the bank, or
 * when the message it follows has now arrived. A message from an unknown sender, of another
 * bank's layout or read only by the generic reader never becomes evidence. Refused (false) when it is about no single card, or repeats a
 * message already trusted (the keys of the unique indexes), so the caller's transaction never fails.
 */
export async function trustMessage(tx: Tx, messageId: string): Promise<boolean> {
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
 * The earliest message of the card held only for its balance that follows `tip` (tip's balance
 * plus its deposit, or minus its withdrawal) and is not older than it: it arrived before the
 * message it follows.
 */
export async function waitingFollower(tx: Tx, cardId: string, tip: { balance: bigint; at: Date }): Promise<WaitingMessage | null> {
  const [row] = await tx.$queryRaw<{ id: string; device_id: string; direction: string; amount: bigint; balance: bigint; at: Date; status: string }[]>`
    SELECT id, device_id, direction, amount, balance, coalesce(bank_time, received_at) AS at, status FROM bank_messages
    WHERE card_id = ${cardId}::uuid AND NOT trusted AND evidence_problem = 'balance_mismatch' AND duplicate_of_id IS NULL AND device_id IS NOT NULL
      AND amount IS NOT NULL AND balance IS NOT NULL AND coalesce(bank_time, received_at) >= ${tip.at}::timestamptz
      AND balance = ${tip.balance}::bigint + CASE direction WHEN 'deposit' THEN amount WHEN 'withdrawal' THEN -amount END
    ORDER BY coalesce(bank_time, received_at), created_at
    LIMIT 1
    FOR UPDATE`;
  return row ? { id: row.id, deviceId: row.device_id, direction: row.direction, amount: row.amount, balance: row.balance, at: row.at, status: row.status } : null;
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
