import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import { lockMatchScope } from './selection.js';

/**
 * Moves of one card, one after another until commit, so each reads the device the previous one
 * left. Not the card's row lock: a create takes its scope lock and then the card row, so a move
 * holding the row while it waits for a scope would deadlock with it. Only moves take this lock,
 * and they take it first.
 */
async function lockCardMoves(tx: Tx, cardId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`card-move:${cardId}`}, 0))`;
}

/**
 * A card's deposits confirm that card's payments wherever the card now is: when its device changes,
 * its live holds move to the new match scope in the same transaction, under both scopes' locks (in
 * a fixed order, the one allocation uses). If an amount is already held in the new scope, two
 * payers would be indistinguishable there: the move is refused and nothing changes.
 */
export async function moveCardHolds(tx: Tx, cardId: string, toDeviceId: string | null): Promise<void> {
  await lockCardMoves(tx, cardId);
  // Read under the move lock (its own statement, so after the previous move committed).
  const [card] = await tx.$queryRaw<{ device_id: string | null; from: string; to: string }[]>`
    SELECT device_id, match_scope(id, device_id) AS "from", match_scope(id, ${toDeviceId}::uuid) AS "to"
    FROM cards WHERE id = ${cardId}::uuid`;
  if (!card || card.device_id === toDeviceId) return;
  const { from, to } = card;
  for (const scope of [from, to].sort()) await lockMatchScope(tx, scope);
  // A backstop under the scope locks, the row now locked for the update: every device change takes
  // the move lock above, so the device is still the one read.
  const [locked] = await tx.$queryRaw<{ device_id: string | null }[]>`SELECT device_id FROM cards WHERE id = ${cardId}::uuid FOR UPDATE`;
  if (locked?.device_id !== card.device_id) throw new AppError('invalid_state', 'The card was moved concurrently; retry.', {});

  await tx.$executeRaw`UPDATE amount_holds SET released_at = now() WHERE scope IN (${from}, ${to}) AND released_at IS NULL AND held_until <= now()`;
  const clashes = await tx.$queryRaw<{ amount: bigint }[]>`
    SELECT h.amount FROM amount_holds h JOIN payments p ON p.id = h.payment_id
    WHERE p.card_id = ${cardId}::uuid AND h.released_at IS NULL
      AND h.amount IN (SELECT amount FROM amount_holds WHERE scope = ${to} AND released_at IS NULL)
    ORDER BY h.amount`;
  if (clashes.length > 0) {
    const amounts = clashes.map((c) => c.amount.toString());
    throw new AppError(
      'invalid_state',
      `The card has open payments for amounts the new device already waits for (${amounts.join(', ')}); move it once they are settled.`,
      { amounts },
    );
  }
  await tx.$executeRaw`
    UPDATE amount_holds SET scope = ${to}
    WHERE released_at IS NULL AND payment_id IN (SELECT id FROM payments WHERE card_id = ${cardId}::uuid)`;
}
