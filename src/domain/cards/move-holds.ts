import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import { cardHoldsClashingWith, moveHoldsOfCard, releaseEndedHolds } from '../payments/store/holds.js';
import { cardScopesForMove, lockCardMoves, lockCardRow, lockMatchScope } from './store/moves.js';

/**
 * A card's deposits confirm that card's payments wherever the card now is: when its device changes,
 * its live holds move to the new match scope in the same transaction, under both scopes' locks (in
 * a fixed order, the one allocation uses). If an amount is already held in the new scope, two
 * payers would be indistinguishable there: the move is refused and nothing changes.
 */
export async function moveCardHolds(tx: Tx, cardId: string, toDeviceId: string | null): Promise<void> {
  await lockCardMoves(tx, cardId);
  // Read under the move lock (its own statement, so after the previous move committed).
  const card = await cardScopesForMove(tx, cardId, toDeviceId);
  if (!card || card.device_id === toDeviceId) return;
  const { from, to } = card;
  for (const scope of [from, to].sort()) await lockMatchScope(tx, scope);
  // A backstop under the scope locks, the row now locked for the update: every device change takes
  // the move lock above, so the device is still the one read.
  const locked = await lockCardRow(tx, cardId);
  if (locked?.device_id !== card.device_id) throw new AppError('invalid_state', 'The card was moved concurrently; retry.', {});

  await releaseEndedHolds(tx, [from, to]);
  const clashes = await cardHoldsClashingWith(tx, cardId, to);
  if (clashes.length > 0) {
    const amounts = clashes.map((a) => a.toString());
    throw new AppError(
      'invalid_state',
      `The card has open payments for amounts the new device already waits for (${amounts.join(', ')}); move it once they are settled.`,
      { amounts },
    );
  }
  await moveHoldsOfCard(tx, cardId, to);
}
