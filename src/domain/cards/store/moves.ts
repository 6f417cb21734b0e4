import type { Tx } from '../../../db/prisma.js';

/**
 * What a card's move to another device (move-holds.ts) reads and locks of the cards concern. The
 * holds it moves are the payments concern's (payments/store/holds.ts).
 */

/**
 * Moves of one card, one after another until commit, so each reads the device the previous one
 * left. Not the card's row lock: a create takes its scope lock (shared) and then the card row, so a
 * move holding the row while it waits for a scope would deadlock with it. Only moves take this
 * lock, and they take it first.
 */
export async function lockCardMoves(tx: Tx, cardId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`card-move:${cardId}`}, 0))`;
}

/** The card's device now, and its match scope now (`from`) and on `toDeviceId` (`to`); undefined when there is no such card. */
export async function cardScopesForMove(tx: Tx, cardId: string, toDeviceId: string | null): Promise<{ device_id: string | null; from: string; to: string } | undefined> {
  const [card] = await tx.$queryRaw<{ device_id: string | null; from: string; to: string }[]>`
    SELECT device_id, match_scope(id, device_id) AS "from", match_scope(id, ${toDeviceId}::uuid) AS "to"
    FROM cards WHERE id = ${cardId}::uuid`;
  return card;
}

/** Locks the card's row until commit; its device as it is under the lock (undefined: no such card). */
export async function lockCardRow(tx: Tx, cardId: string): Promise<{ device_id: string | null } | undefined> {
  const [locked] = await tx.$queryRaw<{ device_id: string | null }[]>`SELECT device_id FROM cards WHERE id = ${cardId}::uuid FOR UPDATE`;
  return locked;
}

/** A card move's exclusive hold on one match scope until commit: creates there (which take it shared) wait. */
export async function lockMatchScope(tx: Tx, scope: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(match_scope_lock_key(${scope}))`;
}
