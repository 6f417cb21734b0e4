import type { Tx } from '../../db/prisma.js';
import type { ScopeCard } from '../matching/match-deposit.js';
import { isKnownSender } from '../sms/senders.js';
import type { ParsedSms } from '../sms/types.js';

/** Why a deposit that could confirm a payment is held for the merchant instead (the payment's reviewReason). */
export type EvidenceProblem = { reason: 'unknown_sender' | 'balance_mismatch' | 'unrecognized_format'; detail: string };

export type PreviousBalance = { id: string; balance: bigint } | null;

/**
 * The checks a real deposit must pass before it may confirm anything (CONTRACT "Evidence"), as a
 * pure decision: read only by the generic reader; a sender that is not a known sender of its bank
 * (nor one the merchant added on a card the deposit can be for); a balance that contradicts the
 * account's previous message (previous + amount ≠ new, when both carry one).
 */
export function evidenceProblem(input: { sender: string; parsed: ParsedSms; cards: Pick<ScopeCard, 'smsSender'>[]; previous: PreviousBalance }): EvidenceProblem | null {
  const { sender, parsed, cards, previous } = input;
  if (parsed.generic) {
    return { reason: 'unrecognized_format', detail: 'Only the generic reader understood this message (no bank parser claims its layout); a person must confirm it.' };
  }
  const vouched = cards.map((c) => c.smsSender).filter((s): s is string => Boolean(s));
  if (!isKnownSender(parsed.bankCode, sender, vouched)) {
    return {
      reason: 'unknown_sender',
      detail: `The sender "${sender}" is not a known sender of ${parsed.bankCode} SMS (add it to the card as smsSender if it is your bank's).`,
    };
  }
  if (previous && parsed.balance !== null && parsed.amount !== null && previous.balance + parsed.amount !== parsed.balance) {
    return {
      reason: 'balance_mismatch',
      detail: `The balance ${parsed.balance} does not follow from the account's previous balance ${previous.balance} plus ${parsed.amount} (message ${previous.id}).`,
    };
  }
  return null;
}

/**
 * The account's balance just before this message, from the latest earlier message of the same
 * merchant, bank and account that reported one (in bank time, then arrival order). Copies of this
 * very movement (same amount and resulting balance, e.g. forwarded by a second phone) are skipped.
 */
export async function previousBalance(tx: Tx, message: { id: string; merchantId: string; receivedAt: Date; createdAt: Date }, parsed: ParsedSms, at: Date): Promise<PreviousBalance> {
  if (parsed.balance === null || parsed.accountHint === null) return null;
  const [row] = await tx.$queryRaw<{ id: string; balance: bigint }[]>`
    SELECT id, balance FROM bank_messages
    WHERE merchant_id = ${message.merchantId}::uuid AND bank_code = ${parsed.bankCode} AND account_hint = ${parsed.accountHint}
      AND balance IS NOT NULL AND id <> ${message.id}::uuid AND status <> 'duplicate' AND simulated = false
      AND NOT (amount IS NOT DISTINCT FROM ${parsed.amount} AND balance = ${parsed.balance})
      AND (coalesce(bank_time, received_at), created_at) < (${at}::timestamptz, ${message.createdAt}::timestamptz)
    ORDER BY coalesce(bank_time, received_at) DESC, created_at DESC
    LIMIT 1`;
  return row ?? null;
}

/**
 * The first copy of this deposit when its bank reference, account and amount were seen before
 * (another phone, a re-send, a backfill), under a lock on that key so two copies processed at once
 * agree on which one is first; the unique index over originals is the backstop. A copy that stayed
 * `unmatched` (forwarded by a phone that does not hold the card) confirmed nothing and is not one.
 */
export async function earlierCopy(tx: Tx, message: { id: string; merchantId: string }, parsed: ParsedSms): Promise<string | null> {
  if (parsed.reference === null || parsed.amount === null) return null;
  const key = `${message.merchantId}:${parsed.bankCode}:${parsed.accountHint ?? ''}:${parsed.reference}:${parsed.amount}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 2))`;
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM bank_messages
    WHERE merchant_id = ${message.merchantId}::uuid AND bank_code = ${parsed.bankCode} AND coalesce(account_hint, '') = ${parsed.accountHint ?? ''}
      AND reference = ${parsed.reference} AND amount = ${parsed.amount} AND direction = 'deposit'
      AND duplicate_of_id IS NULL AND status <> 'unmatched' AND id <> ${message.id}::uuid
    LIMIT 1`;
  return row?.id ?? null;
}
