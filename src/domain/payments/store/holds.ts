import type { Tx } from '../../../db/prisma.js';

/**
 * Amount holds (docs/integration.md "1. Create a payment"): every payment holds its `amountFinal`
 * in its match scope from creation until its late window ends; the reads and moves the matching,
 * evidence, sandbox and card concerns need, in one place. The create function makes holds
 * (payments/sql/create_payment.sql).
 */

/** The payment whose live hold in the scope is exactly this amount (at most one: a unique index). */
export async function holderOfAmount(tx: Tx, scope: string, amount: bigint): Promise<{ paymentId: string; cardId: string } | null> {
  const [hold] = await tx.$queryRaw<{ payment_id: string; card_id: string }[]>`
    SELECT h.payment_id, p.card_id FROM amount_holds h JOIN payments p ON p.id = h.payment_id
    WHERE h.scope = ${scope} AND h.released_at IS NULL AND h.amount = ${amount}`;
  return hold ? { paymentId: hold.payment_id, cardId: hold.card_id } : null;
}

export type BaseAmountHolder = { id: string; cardId: string; projectId: string; sandbox: boolean; createdAt: Date };

/** Pending payments on these cards of the scope whose amount without code is `amount`, created by `createdBefore`, oldest first. */
export async function pendingWithRequestedAmount(
  tx: Tx,
  q: { scope: string; cardIds: readonly string[]; amount: bigint; sandbox: boolean; createdBefore: Date; except: string | null },
): Promise<BaseAmountHolder[]> {
  const rows = await tx.$queryRaw<{ id: string; card_id: string; project_id: string; sandbox: boolean; created_at: Date }[]>`
    SELECT p.id, p.card_id, p.project_id, p.sandbox, p.created_at FROM payments p JOIN amount_holds h ON h.payment_id = p.id
    WHERE h.scope = ${q.scope} AND h.released_at IS NULL AND p.status = 'pending' AND p.late_until > now()
      AND p.sandbox = ${q.sandbox} AND p.amount_requested = ${q.amount} AND p.card_id = ANY(${[...q.cardIds]}::uuid[])
      AND p.created_at <= ${q.createdBefore} AND p.id <> ${q.except ?? '00000000-0000-0000-0000-000000000000'}::uuid
    ORDER BY p.created_at`;
  return rows.map((r) => ({ id: r.id, cardId: r.card_id, projectId: r.project_id, sandbox: r.sandbox, createdAt: r.created_at }));
}

/** Whether any live hold of the scope, or any held payment's amount without code, is this amount. */
export async function amountClaimed(tx: Pick<Tx, '$queryRaw'>, scope: string, amount: bigint): Promise<boolean> {
  const [claimed] = await tx.$queryRaw<{ n: bigint }[]>`
    SELECT count(*)::bigint AS n FROM amount_holds h JOIN payments p ON p.id = h.payment_id
    WHERE h.scope = ${scope} AND h.released_at IS NULL AND (h.amount = ${amount} OR p.amount_requested = ${amount})`;
  return claimed!.n > 0n;
}

/**
 * A card's move from one scope to another (under both scopes' locks, taken by the caller): holds
 * past their late window are released, then the amounts the card holds that the new scope already
 * holds are returned; none → the card's live holds move.
 */
export async function releaseEndedHolds(tx: Tx, scopes: readonly string[]): Promise<void> {
  await tx.$executeRaw`UPDATE amount_holds SET released_at = now() WHERE scope = ANY(${[...scopes]}::text[]) AND released_at IS NULL AND held_until <= now()`;
}

export async function cardHoldsClashingWith(tx: Tx, cardId: string, scope: string): Promise<bigint[]> {
  const rows = await tx.$queryRaw<{ amount: bigint }[]>`
    SELECT h.amount FROM amount_holds h JOIN payments p ON p.id = h.payment_id
    WHERE p.card_id = ${cardId}::uuid AND h.released_at IS NULL
      AND h.amount IN (SELECT amount FROM amount_holds WHERE scope = ${scope} AND released_at IS NULL)
    ORDER BY h.amount`;
  return rows.map((r) => r.amount);
}

export async function moveHoldsOfCard(tx: Tx, cardId: string, scope: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE amount_holds SET scope = ${scope}
    WHERE released_at IS NULL AND payment_id IN (SELECT id FROM payments WHERE card_id = ${cardId}::uuid)`;
}
