import type { Tx } from '../../db/prisma.js';
import { AppError, type Refusal } from '../../errors.js';
import type { BankMessage, Card } from '../../generated/prisma/client.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { cardsForHint } from '../bank-messages/evidence.js';
import { lockVisibleMessage } from '../bank-messages/decisions.js';
import { smsParsers } from '../sms/registry.js';
import { senderForms } from '../sms/senders.js';
import { banks } from './banks.js';

/**
 * "This is my bank's line" (docs/live-setup.md "3.3 The card"; schema.graphql `vouchSmsSender`): a deposit held only because its
 * sender is not one the service knows for the bank, while its text reads exactly as that bank's
 * SMS about one of the merchant's cards, lets the merchant make the sender the card's `smsSender`
 * (the operation src/operations/vouch-sms-sender.ts). The held deposit itself stays held: attaching
 * it to a payment is a decision of its own.
 */

/** Every bank of the catalog, with the sender ids its SMS are known to come from (the card form offers them). */
export function bankLines(): { code: string; name: string; senders: readonly string[] }[] {
  return Object.entries(banks).map(([code, name]) => ({ code, name, senders: smsParsers.find((p) => p.bankCode === code)?.senders ?? [] }));
}

/** A held message and the card its sender may become the line of. */
export type VouchTarget = { message: BankMessage; card: Card | null };

/**
 * The message (any the caller can see; management needs the merchant key or an owner) and its
 * card: the one the message was resolved to, or `cardId` among the cards of the phone that forwarded
 * it. Locks the message; the card row is locked by its update.
 */
export async function loadVouchTarget(tx: Tx, actor: Actor, messageId: string, cardId: string | null): Promise<VouchTarget> {
  requireActor(actor, 'merchant');
  const message = await lockVisibleMessage(tx, actor, messageId);
  const id = message.cardId ?? cardId;
  const card = id && message.deviceId ? await tx.card.findFirst({ where: { id, merchantId: message.merchantId, deviceId: message.deviceId } }) : null;
  return { message, card };
}

const refuse = (message: string, reason: string): Refusal => ({ code: 'invalid_state', message, details: { reason } });

/** What the message alone must be: a real deposit held for `unknown_sender` only, its sender storable on a card. */
export function messageVouchRefusal(
  message: Pick<BankMessage, 'status' | 'evidenceProblem' | 'simulated' | 'direction' | 'amount' | 'bankCode' | 'sender'>,
): Refusal | null {
  if (message.status !== 'needs_review' || message.evidenceProblem !== 'unknown_sender') {
    return refuse('Only a deposit held because its sender is unknown can vouch for its sender.', 'not_unknown_sender');
  }
  if (message.simulated || message.direction !== 'deposit' || message.amount === null || !message.bankCode) {
    return refuse('The message does not read as a bank deposit with an amount.', 'not_a_bank_deposit');
  }
  // A sender with hidden or look-alike characters (or too long for a card) is never anyone's line.
  if (message.sender.length > 40 || senderForms(message.sender).size === 0) {
    return refuse('This sender has hidden or look-alike characters; it cannot be a bank’s line.', 'sender_not_storable');
  }
  return null;
}

/**
 * Pure: whether the message's sender may become the card's line. The message is a deposit held for
 * `unknown_sender` alone (every earlier check passed: a bank parser claimed its layout, the card it
 * names is of that bank), with its amount read; the card is active, of the message's bank, named by
 * the message (or, unnamed, the card given matches its hint), and the one it resolved to if any.
 */
export function vouchRefusal({ message, card }: VouchTarget, cardId: string | null): Refusal | null {
  const refused = messageVouchRefusal(message);
  if (refused) return refused;
  if (message.cardId && cardId && cardId !== message.cardId) return refuse('The message names another card.', 'card_mismatch');
  if (!card) {
    return message.cardId || cardId
      ? refuse('The card is not one of the cards of the phone that forwarded this message.', 'card_mismatch')
      : refuse('The message names no single card: say which card (cardId) this bank line is for.', 'card_required');
  }
  if (!card.active) return refuse('The card is deactivated.', 'card_inactive');
  if (card.bankCode !== message.bankCode) return refuse(`The message reads as ${message.bankCode} SMS, the card is a ${card.bankCode} card.`, 'card_mismatch');
  if (!message.cardId && cardsForHint([card], message.accountHint).length === 0) return refuse('The card is not the one the message names.', 'card_mismatch');
  return null;
}

/** Makes the message's sender the card's SMS line; the card as it was and as it is. */
export async function setCardSmsLine(tx: Tx, card: Card, sender: string): Promise<Card> {
  const updated = await tx.card.update({ where: { id: card.id }, data: { smsSender: sender } });
  if (!updated) throw AppError.notFound('Card');
  return updated;
}
