import type { z } from 'zod';
import { isDatabaseBusy, retryOnConflict } from '../db/errors.js';
import type { Tx } from '../db/prisma.js';
import { requireActor, type Actor } from '../domain/auth/actor.js';
import { decideEvidence, resolveCard } from '../domain/bank-messages/evidence.js';
import { matchResolvedGap, syncBalanceGaps } from '../domain/bank-messages/gap-sync.js';
import { trustFollowers } from '../domain/bank-messages/followers.js';
import { chainReferencesOf, heldCard, lockEvidence, phoneCards, possibleOriginals } from '../domain/bank-messages/store/evidence.js';
import {
  batchInput,
  indexFields,
  lockReceived,
  messageInput,
  readFields,
  recordDuplicate,
  recordEvidence,
  settle,
  storeBankMessage,
  type MessageStatus,
} from '../domain/bank-messages/messages.js';
import { implausibleParse } from '../domain/bank-messages/sanity.js';
import { deviceScope } from '../domain/cards/selection.js';
import type { Deps } from '../domain/deps.js';
import { matchDeposit } from '../domain/matching/match-deposit.js';
import { effectiveTime, parseSms } from '../domain/sms/registry.js';
import { banksOfSender } from '../domain/sms/senders.js';
import { parseInput } from '../domain/validation.js';

/**
 * A bank message in: stored raw (never lost) → read by its bank's parser → resolved to a card of
 * its phone → evidence (decideEvidence) → matched to a payment (decideMatch) → settled. Each step
 * belongs to its concern; this file only orders them, in one transaction per message.
 */

/**
 * A device forwards one raw SMS. It is stored first, in its own transaction, so it is never lost;
 * then it is processed before the answer (or soon after: `processNowOrLater`). The same device,
 * body and receivedAt again is stored as a `duplicate` of the first, with its own id.
 */
export async function receiveBankMessage(deps: Deps, actor: Actor, input: unknown): Promise<{ id: string; status: MessageStatus }> {
  const device = requireActor(actor, 'device');
  const stored = await storeBankMessage(deps, device, parseInput(messageInput, input));
  if (stored.duplicate) return { id: stored.id, status: 'duplicate' };
  return { id: stored.id, status: (await processNowOrLater(deps, stored.id)) ?? 'received' };
}

/**
 * A stored message's processing, or null when the database is too busy for it now (no connection
 * in time, a lock or statement timeout: `isDatabaseBusy`). It then stays `received` and its rescue
 * job (storeBankMessage) processes it: the phone is answered that it is stored, never told to send
 * again an SMS that is.
 */
async function processNowOrLater(deps: Deps, messageId: string): Promise<MessageStatus | null> {
  try {
    return await processBankMessage(deps, messageId);
  } catch (err) {
    if (!isDatabaseBusy(err)) throw err;
    deps.log.warn({ err, messageId }, 'bank message stored; the database was too busy to process it now: its rescue job will');
    return null;
  }
}

/**
 * Backfill: SMS a phone missed or queued while offline. All are checked first (a bad one refuses
 * the batch, naming its index), each is stored raw in the order sent (never lost), then the new
 * ones are processed one at a time, oldest bank time first (receivedAt when the text has none), so
 * matching and balance chains see them in the order the bank sent them. Answers in the order sent.
 * When the database is too busy for one, it and the ones after it are answered `received`.
 */
export async function receiveBankMessageBatch(deps: Deps, actor: Actor, input: unknown): Promise<{ items: { id: string; status: MessageStatus }[] }> {
  const device = requireActor(actor, 'device');
  let checked: z.output<typeof batchInput>;
  try {
    checked = parseInput(batchInput, input);
  } catch (err) {
    throw indexFields(err);
  }
  const stored: { id: string; duplicate: boolean; at: number; index: number }[] = [];
  for (const [index, message] of checked.messages.entries()) {
    const { parsed } = parseSms(message.sender, message.body.text, message.receivedAt);
    const at = effectiveTime(parsed, message.receivedAt).getTime();
    stored.push({ ...(await storeBankMessage(deps, device, message)), at, index });
  }
  const statuses = new Map<string, MessageStatus>();
  const fresh = stored.filter((s) => !s.duplicate).sort((a, b) => a.at - b.at || a.index - b.index);
  for (const s of fresh) {
    const status = await processNowOrLater(deps, s.id);
    // The database is busy: this one and the ones after it stay `received` for their rescue jobs.
    if (status === null) break;
    statuses.set(s.id, status);
  }
  return { items: stored.map((s) => ({ id: s.id, status: s.duplicate ? 'duplicate' : (statuses.get(s.id) ?? 'received') })) };
}

/**
 * Processes a stored message still `received`; any other status is left as it is. Two deposits
 * flagging the same payments can deadlock; Postgres aborts one, and it is processed again.
 */
export async function processBankMessage(deps: Deps, messageId: string): Promise<MessageStatus> {
  return retryOnConflict(() => deps.prisma.$transaction((tx) => processOnce(tx, deps, messageId)));
}

async function processOnce(tx: Tx, deps: Deps, messageId: string): Promise<MessageStatus> {
  const message = await lockReceived(tx, messageId);
  if (typeof message === 'string') return message;

  // Real SMS always come from a phone (device routes); only simulations have none, and they do not come here.
  if (!message.deviceId) return settle(tx, messageId, 'unparsed', 'The message came from no phone.');
  const cards = await phoneCards(tx, message.deviceId);
  const { parsed } = parseSms(message.sender, message.body, message.receivedAt, banksOfSender(cards, message.sender));
  if (!parsed) return settle(tx, messageId, 'unparsed', 'No bank parser recognised this message; it is kept for review.');
  // Issue 13: a misread figure (beyond BIGINT or any real transfer) is `unparsed`, never stuck.
  const implausible = implausibleParse(parsed);
  if (implausible) return settle(tx, messageId, 'unparsed', implausible);
  const fields = readFields(parsed);
  const scope = deviceScope(message.deviceId);
  const at = effectiveTime(parsed, message.receivedAt);
  const deposit = parsed.direction === 'deposit' && parsed.amount !== null;

  // Evidence keys on the card the bank names, not on how the SMS spells it (docs/security.md).
  const named = resolveCard(cards, parsed);
  const held = named.card === null && deposit ? await heldCard(tx, scope, parsed.amount!, named.cards) : null;
  const resolution = { ...named, card: named.card ?? held, byHold: held !== null };
  const { card } = resolution;
  const cardIds = resolution.cards.map((c) => c.id);
  await lockEvidence(tx, message.merchantId, cardIds, parsed);
  const evidence = decideEvidence({
    sender: message.sender,
    parsed,
    resolution,
    bodySha256: message.bodySha256,
    originals: await possibleOriginals(tx, message.merchantId, messageId, cardIds, parsed),
    references: card ? await chainReferencesOf(tx, card.id, messageId, at) : [],
  });
  if (evidence.kind === 'duplicate') return recordDuplicate(tx, messageId, fields, evidence.facts.cardId, evidence.original);
  await recordEvidence(tx, messageId, fields, card, evidence);
  // Messages of this card that arrived before this one and follow it are trusted now.
  if (evidence.trusted && card && parsed.balance !== null) await trustFollowers(tx, deps.jobs, card, { balance: parsed.balance, at });
  // Money whose SMS never came shows as a gap in the card's chain (gap-sync.ts).
  if (card) await syncBalanceGaps(tx, deps.jobs, { ...card, merchantId: message.merchantId });

  if (!deposit) return settle(tx, messageId, 'ignored', `Not a deposit (${parsed.direction}).`);
  if (cards.length === 0) return settle(tx, messageId, 'unmatched', 'No card is linked to this device.');
  if (resolution.cards.length === 0) return settle(tx, messageId, 'unmatched', `The SMS names account …${parsed.accountHint}, which matches no card on this device.`);
  const gapMoney = evidence.trusted && card ? await matchResolvedGap(tx, messageId, card, { amount: parsed.amount!, at }) : null;
  if (gapMoney) {
    const reason = `The missing SMS of balance gap ${gapMoney.gapId}, whose money the merchant gave to payment ${gapMoney.paymentId}.`;
    return settle(tx, messageId, 'matched', reason, { paymentId: gapMoney.paymentId, cardId: card!.id, projectId: gapMoney.projectId });
  }
  const result = await matchDeposit(tx, deps.jobs, messageId, scope, resolution.cards, { amount: parsed.amount!, at, simulated: false, review: evidence.problem });
  return settle(tx, messageId, result.status, result.statusReason, result);
}
