import { createHash } from 'node:crypto';
import { z } from 'zod';
import { retryOnConflict } from '../../db/errors.js';
import type { Tx } from '../../db/prisma.js';
import { requireActor, type Actor, type ActorOf } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { matchDeposit, type MatchOutcome, type ScopeCard } from '../matching/match-deposit.js';
import { decideEvidence, resolveCard, type BankFacts } from './evidence.js';
import { lockEvidence, possibleOriginals, previousTrusted, trustMessage, waitingFollower } from './evidence-store.js';
import { effectiveTime, parseSms } from '../sms/registry.js';
import { parseInput, smsBodySchema } from '../validation.js';
import { implausibleParse } from './sanity.js';

export const messageInput = z.object({
  sender: z.string().trim().min(1, 'must be 1..100 characters').max(100, 'must be 1..100 characters'),
  // Issue 13: NUL / lone surrogates are escaped in `text`, the exact original kept in `raw` (body_raw).
  body: smsBodySchema,
  receivedAt: z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).transform((s) => new Date(s)),
});

export type MessageStatus = 'received' | 'matched' | 'needs_review' | 'unmatched' | 'ignored' | 'unparsed' | 'duplicate' | 'dismissed';

// Processing normally happens before the device gets its answer; this job only rescues a message
// whose processing was cut off (crash, deploy) after it was stored.
const RESCUE_DELAY_MS = 30_000;

/**
 * A device forwards one raw SMS. It is stored first, in its own transaction, so it is never lost;
 * then it is parsed and matched. The same device, body and receivedAt again is stored as a
 * `duplicate` of the first, with its own id.
 */
export async function receiveBankMessage(deps: Deps, actor: Actor, input: unknown): Promise<{ id: string; status: MessageStatus }> {
  const device = requireActor(actor, 'device');
  const stored = await storeBankMessage(deps, device, parseInput(messageInput, input));
  if (stored.duplicate) return { id: stored.id, status: 'duplicate' };
  return { id: stored.id, status: await processBankMessage(deps, stored.id) };
}

/** Raw-first storage of one checked message (also used by the backfill batch); no processing. */
export async function storeBankMessage(
  deps: Deps,
  device: ActorOf<'device'>,
  checked: z.output<typeof messageInput>,
): Promise<{ id: string; duplicate: boolean }> {
  const data = { ...checked, body: checked.body.text, bodyRaw: checked.body.raw }; // issue 13
  const bodySha256 = createHash('sha256').update(data.body, 'utf8').digest('hex');

  return deps.prisma.$transaction(async (tx) => {
    const [inserted] = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO bank_messages (merchant_id, device_id, sender, body, body_raw, body_sha256, received_at)
      VALUES (${device.merchantId}::uuid, ${device.deviceId}::uuid, ${data.sender}, ${data.body}, ${data.bodyRaw}, ${bodySha256}, ${data.receivedAt})
      ON CONFLICT (device_id, body_sha256, received_at) WHERE duplicate_of_id IS NULL AND device_id IS NOT NULL DO NOTHING
      RETURNING id`;
    if (inserted) {
      await deps.jobs.send('process-bank-message', { messageId: inserted.id }, { tx, startAfter: new Date(Date.now() + RESCUE_DELAY_MS) });
      return { id: inserted.id, duplicate: false };
    }
    const original = await tx.bankMessage.findFirstOrThrow({
      where: { deviceId: device.deviceId, bodySha256, receivedAt: data.receivedAt, duplicateOfId: null },
    });
    const dup = await tx.bankMessage.create({
      data: {
        merchantId: device.merchantId,
        deviceId: device.deviceId,
        sender: data.sender,
        body: data.body,
        bodyRaw: data.bodyRaw,
        bodySha256,
        receivedAt: data.receivedAt,
        status: 'duplicate',
        statusReason: `Same device, body and receivedAt as message ${original.id}.`,
        duplicateOfId: original.id,
        decidedAt: new Date(),
      },
    });
    return { id: dup.id, duplicate: true };
  });
}

/**
 * Parses and matches a stored message still `received`; any other status is left as it is. Two
 * deposits flagging the same payments can deadlock; Postgres aborts one, and it is processed again.
 */
export async function processBankMessage(deps: Deps, messageId: string): Promise<MessageStatus> {
  return retryOnConflict(() => processOnce(deps, messageId));
}

async function processOnce(deps: Deps, messageId: string): Promise<MessageStatus> {
  return deps.prisma.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM bank_messages WHERE id = ${messageId}::uuid FOR UPDATE`;
    if (!locked) return 'unparsed';
    const message = await tx.bankMessage.findUniqueOrThrow({ where: { id: messageId } });
    if (message.status !== 'received') return message.status as MessageStatus;

    const { parsed } = parseSms(message.sender, message.body, message.receivedAt);
    if (!parsed) return settle(tx, messageId, 'unparsed', 'No bank parser recognised this message; it is kept for review.');
    // Issue 13: a misread figure (beyond BIGINT or any real transfer) is `unparsed`, never stuck.
    const implausible = implausibleParse(parsed);
    if (implausible) return settle(tx, messageId, 'unparsed', implausible);
    const fields = {
      bankCode: parsed.bankCode,
      direction: parsed.direction,
      amount: parsed.amount,
      accountHint: parsed.accountHint,
      bankTime: parsed.bankTime,
      reference: parsed.reference,
      balance: parsed.balance,
    };
    const scopeCards = message.deviceId ? await tx.card.findMany({ where: { deviceId: message.deviceId }, select: SCOPE_CARD }) : [];
    const scope = `device:${message.deviceId}`;
    const at = effectiveTime(parsed, message.receivedAt);
    const deposit = parsed.direction === 'deposit' && parsed.amount !== null;

    // Evidence keys on the card the bank names, not on how the SMS spells it (docs/security.md).
    const named = resolveCard(scopeCards, parsed);
    const resolution = { ...named, card: named.card ?? (deposit ? await heldCard(tx, scope, parsed.amount!, named.cards) : null) };
    const cardIds = resolution.cards.map((c) => c.id);
    await lockEvidence(tx, message.merchantId, cardIds, parsed);
    const card = resolution.card;
    const evidence = decideEvidence({
      sender: message.sender,
      parsed,
      resolution,
      bodySha256: message.bodySha256,
      originals: await possibleOriginals(tx, message.merchantId, messageId, cardIds, parsed),
      previous: card ? await previousTrusted(tx, card.id, messageId, at, message.createdAt) : null,
    });
    if (evidence.kind === 'duplicate') {
      const { original, facts } = evidence;
      await tx.bankMessage.update({
        where: { id: messageId },
        data: { ...fields, cardId: facts.cardId, status: 'duplicate', duplicateOfId: original.id, statusReason: `The same deposit as message ${original.id} (${duplicateWhy(original, facts)}).` },
      });
      return 'duplicate';
    }
    await tx.bankMessage.update({
      where: { id: messageId },
      data: { ...fields, cardId: card?.id ?? null, projectId: card?.projectId ?? null, trusted: evidence.trusted, evidenceProblem: evidence.problem?.reason ?? null },
    });
    // Messages of this card that arrived before this one and follow it are trusted now.
    if (evidence.trusted && card && parsed.balance !== null) await trustFollowers(tx, deps, card, { balance: parsed.balance, at });

    if (!deposit) return settle(tx, messageId, 'ignored', `Not a deposit (${parsed.direction}).`);
    if (scopeCards.length === 0) return settle(tx, messageId, 'unmatched', 'No card is linked to this device.');
    if (resolution.cards.length === 0) return settle(tx, messageId, 'unmatched', `The SMS names account …${parsed.accountHint}, which matches no card on this device.`);
    const result = await matchDeposit(tx, deps.jobs, messageId, scope, resolution.cards, {
      amount: parsed.amount!,
      at,
      simulated: false,
      review: evidence.problem,
    });
    return settle(tx, messageId, result.status, result.statusReason, result);
  });
}

// A phone's backlog that arrived out of order is caught up in one go, within reason.
const MAX_FOLLOWERS = 20;

/**
 * Out-of-order delivery: a message held only for its balance, because it arrived before the
 * message it follows, is trusted once that one is, and a deposit among them is matched again as if
 * it had arrived in order (its payment's hold is still there until the late window ends).
 */
async function trustFollowers(tx: Tx, deps: Deps, card: ScopeCard, tip: { balance: bigint; at: Date }): Promise<void> {
  let current = tip;
  for (let i = 0; i < MAX_FOLLOWERS; i++) {
    const next = await waitingFollower(tx, card.id, current);
    if (!next || !(await trustMessage(tx, next.id))) return;
    if (next.direction === 'deposit' && (next.status === 'needs_review' || next.status === 'unmatched')) {
      const result = await matchDeposit(tx, deps.jobs, next.id, `device:${next.deviceId}`, [card], { amount: next.amount, at: next.at, simulated: false, review: null });
      await settle(tx, next.id, result.status, result.statusReason, result);
    }
    current = next;
  }
}

const SCOPE_CARD = { id: true, projectId: true, bankCode: true, cardNumber: true, accountNumber: true, smsSender: true } as const;

/** When the SMS could be about several cards, the one whose live payment holds this amount, if any. */
async function heldCard<C extends { id: string }>(tx: Tx, scope: string, amount: bigint, cards: C[]): Promise<C | null> {
  if (cards.length === 0) return null;
  const [hold] = await tx.$queryRaw<{ card_id: string }[]>`
    SELECT p.card_id FROM amount_holds h JOIN payments p ON p.id = h.payment_id
    WHERE h.scope = ${scope} AND h.released_at IS NULL AND h.amount = ${amount}`;
  return cards.find((c) => c.id === hold?.card_id) ?? null;
}

function duplicateWhy(original: BankFacts, facts: BankFacts): string {
  if (original.reference !== null && original.reference === facts.reference) return `bank reference ${facts.reference}`;
  if (original.bodySha256 === facts.bodySha256) return 'the same text for the same card';
  return 'the same card, amount and resulting balance';
}

export async function settle(tx: Tx, messageId: string, status: MessageStatus, statusReason: string, match?: MatchOutcome): Promise<MessageStatus> {
  await tx.bankMessage.update({
    where: { id: messageId },
    data: {
      status,
      statusReason,
      ...(match ? { paymentId: match.paymentId, cardId: match.cardId, projectId: match.projectId } : {}),
    },
  });
  return status;
}
