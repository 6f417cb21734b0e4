import type { Db, Tx } from '../../../db/prisma.js';
import type { BalanceGap, Prisma } from '../../../generated/prisma/client.js';
import type { Direction } from '../../sms/types.js';
import type { HeldMessage } from '../gaps.js';

/**
 * Balance gaps in the database (decisions: gaps.ts). Every write here runs under the card's chain
 * lock (store/evidence.ts `lockEvidence` / `lockCardChain`), so two messages of one card never
 * decide its gaps at once; the unique index `balance_gaps_once` is the backstop.
 */

// A card's held messages read at once; a phone's backlog beyond this waits for the next message.
const HELD_LIMIT = 100;

/** The card's messages held only for their balance, not yet decided on (dismissed or refunded). */
export async function heldMessagesOf(tx: Tx, cardId: string): Promise<HeldMessage[]> {
  const rows = await tx.$queryRaw<{ id: string; direction: Direction; amount: bigint; balance: bigint; at: Date; created_at: Date }[]>`
    SELECT id, direction, amount, balance, coalesce(bank_time, received_at) AS at, created_at FROM bank_messages
    WHERE card_id = ${cardId}::uuid AND NOT trusted AND evidence_problem = 'balance_mismatch' AND duplicate_of_id IS NULL AND NOT simulated
      AND amount IS NOT NULL AND balance IS NOT NULL AND direction IN ('deposit', 'withdrawal') AND status NOT IN ('dismissed', 'refunded')
    ORDER BY created_at DESC, id DESC
    LIMIT ${HELD_LIMIT}`;
  return rows.map((r) => ({ id: r.id, direction: r.direction, amount: r.amount, balance: r.balance, at: r.at, arrivedAt: r.created_at }));
}

/** Locks one gap's row (after its card's chain lock). */
export async function lockGapRow(tx: Tx, gapId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM balance_gaps WHERE id = ${gapId}::uuid FOR UPDATE`;
}

/** The card's open gaps, locked. */
export function lockOpenGaps(tx: Tx, cardId: string): Promise<BalanceGap[]> {
  return tx.$queryRaw<BalanceGap[]>`
    SELECT id, merchant_id AS "merchantId", project_id AS "projectId", card_id AS "cardId", from_message_id AS "fromMessageId",
      from_balance AS "fromBalance", to_message_id AS "toMessageId", to_at AS "toAt", to_balance AS "toBalance", amount, status,
      detected_at AS "detectedAt", resolved_at AS "resolvedAt", resolved_payment_id AS "resolvedPaymentId",
      explained_by_message_id AS "explainedByMessageId", decision_note AS "decisionNote", created_at AS "createdAt", updated_at AS "updatedAt"
    FROM balance_gaps WHERE card_id = ${cardId}::uuid AND status = 'open' ORDER BY to_at, id FOR UPDATE`;
}

export type GapPlace = { toMessageId: string; toAt: Date; toBalance: bigint; fromMessageId: string | null; fromBalance: bigint; amount: bigint };

/** Records a gap once: a second one at the same place of the card's chain is no new gap (null). */
export async function insertGap(tx: Tx, card: { id: string; merchantId: string; projectId: string }, place: GapPlace): Promise<string | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO balance_gaps (merchant_id, project_id, card_id, from_message_id, from_balance, to_message_id, to_at, to_balance, amount)
    VALUES (${card.merchantId}::uuid, ${card.projectId}::uuid, ${card.id}::uuid, ${place.fromMessageId}::uuid, ${place.fromBalance}::bigint,
      ${place.toMessageId}::uuid, ${place.toAt}::timestamptz, ${place.toBalance}::bigint, ${place.amount}::bigint)
    ON CONFLICT (card_id, to_at, to_balance) DO NOTHING
    RETURNING id`;
  return rows[0]?.id ?? null;
}

/** Moves an open gap to its place now (its end found earlier, or its start later); false when another gap holds that place. */
export async function moveGap(tx: Tx, gapId: string, place: GapPlace): Promise<boolean> {
  const updated = await tx.$executeRaw`
    UPDATE balance_gaps g SET from_message_id = ${place.fromMessageId}::uuid, from_balance = ${place.fromBalance}::bigint,
      to_message_id = ${place.toMessageId}::uuid, to_at = ${place.toAt}::timestamptz, to_balance = ${place.toBalance}::bigint,
      amount = ${place.amount}::bigint, updated_at = now()
    WHERE g.id = ${gapId}::uuid AND g.status = 'open' AND NOT EXISTS (
      SELECT 1 FROM balance_gaps o WHERE o.card_id = g.card_id AND o.id <> g.id AND o.to_at = ${place.toAt}::timestamptz AND o.to_balance = ${place.toBalance}::bigint)`;
  return updated === 1;
}

/**
 * The trusted message of the card whose balance the gap's end now follows, other than the gap's
 * start: the late SMS (the last of them) that explained the gap; null when the end is not explained.
 */
export async function explainingMessage(tx: Tx, gap: Pick<BalanceGap, 'cardId' | 'toMessageId' | 'fromMessageId'>): Promise<string | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT l.id FROM bank_messages e JOIN bank_messages l ON l.card_id = e.card_id
    WHERE e.id = ${gap.toMessageId}::uuid AND e.trusted AND l.trusted AND l.id <> e.id AND l.balance IS NOT NULL
      AND l.id IS DISTINCT FROM ${gap.fromMessageId}::uuid
      AND coalesce(l.bank_time, l.received_at) <= coalesce(e.bank_time, e.received_at)
      AND e.balance = l.balance + CASE e.direction WHEN 'deposit' THEN e.amount WHEN 'withdrawal' THEN -e.amount END
    ORDER BY l.created_at DESC LIMIT 1`;
  return rows[0]?.id ?? null;
}

/** Closes an open gap that a late message explained by itself: no payment is confirmed by the gap. */
export function closeExplained(tx: Tx, gapId: string, messageId: string) {
  return tx.balanceGap.updateMany({
    where: { id: gapId, status: 'open' },
    data: { status: 'resolved', resolvedAt: new Date(), explainedByMessageId: messageId, decisionNote: 'The missing SMS arrived and explained the gap.' },
  });
}

/** Dismisses an open gap whose end message the merchant dismissed (or refunded); whether it did. */
export async function dismissWithMessage(tx: Tx, gap: Pick<BalanceGap, 'id' | 'toMessageId'>): Promise<boolean> {
  const { count } = await tx.balanceGap.updateMany({
    where: { id: gap.id, status: 'open', toMessage: { status: { in: ['dismissed', 'refunded'] } } },
    data: { status: 'dismissed', resolvedAt: new Date(), decisionNote: 'Its message was dismissed or refunded by the merchant.' },
  });
  return count > 0;
}

/** A gap that is no gap any more (its end waits behind another gap's end): never decided, so nothing rests on it. */
export function dropGap(tx: Tx, gapId: string) {
  return tx.balanceGap.deleteMany({ where: { id: gapId, status: 'open' } });
}

/** Whether the message is still waiting in the chain (held for its balance) rather than trusted or decided. */
export async function isTrusted(tx: Tx, messageId: string): Promise<boolean> {
  const m = await tx.bankMessage.findUnique({ where: { id: messageId }, select: { trusted: true } });
  return m?.trusted === true;
}

/**
 * A resolved gap on the card whose money this late deposit is: the merchant already confirmed a
 * payment for it (same amount, between the gap's start and end in the bank's order), and no SMS has
 * been found for it yet. The deposit is that payment's SMS, never a second payment's money.
 */
export async function resolvedGapFor(tx: Tx, cardId: string, deposit: { amount: bigint; at: Date }): Promise<{ id: string; paymentId: string; projectId: string } | null> {
  const rows = await tx.$queryRaw<{ id: string; payment_id: string; project_id: string }[]>`
    SELECT g.id, g.resolved_payment_id AS payment_id, p.project_id FROM balance_gaps g
    JOIN payments p ON p.id = g.resolved_payment_id
    LEFT JOIN bank_messages f ON f.id = g.from_message_id
    WHERE g.card_id = ${cardId}::uuid AND g.status = 'resolved' AND g.explained_by_message_id IS NULL AND g.amount = ${deposit.amount}::bigint
      AND ${deposit.at}::timestamptz <= g.to_at AND (f.id IS NULL OR coalesce(f.bank_time, f.received_at) <= ${deposit.at}::timestamptz)
    ORDER BY g.to_at LIMIT 1 FOR UPDATE OF g`;
  const row = rows[0];
  return row ? { id: row.id, paymentId: row.payment_id, projectId: row.project_id } : null;
}

/** The payments a positive gap may be (reason `missing_sms`): of the card's scope, not confirmed, created at most 48 h before its end. */
export async function gapCandidates(db: Db, gap: Pick<BalanceGap, 'cardId' | 'amount' | 'toAt'>, limit = 10): Promise<{ id: string }[]> {
  if (gap.amount <= 0n) return [];
  return db.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM payments p
    JOIN cards c ON c.id = p.card_id
    JOIN cards g ON g.id = ${gap.cardId}::uuid
    WHERE (c.id = g.id OR (g.device_id IS NOT NULL AND c.device_id = g.device_id)) AND c.merchant_id = g.merchant_id
      AND NOT p.sandbox AND p.status IN ('pending', 'expired', 'canceled')
      AND p.created_at >= ${gap.toAt}::timestamptz - interval '48 hours' AND p.created_at <= ${gap.toAt}::timestamptz + interval '2 minutes'
      AND (p.amount_final = ${gap.amount}::bigint OR p.amount_requested = ${gap.amount}::bigint)
    ORDER BY (p.amount_final = ${gap.amount}::bigint) DESC, p.created_at DESC, p.id
    LIMIT ${limit}`;
}

export type GapFilter = Prisma.BalanceGapWhereInput;
