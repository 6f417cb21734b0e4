import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError, isAppError, type FieldError } from '../../errors.js';
import type { BankMessage } from '../../generated/prisma/client.js';
import type { ActorOf } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import type { BankFacts, EvidenceProblem } from './evidence.js';
import type { ParsedSms } from '../sms/types.js';
import { trimSender } from '../sms/sender-match.js';
import { smsBodySchema } from '../validation.js';
import { insertReceivedMessage, lockMessageRow } from './store/messages.js';

export const messageInput = z.object({
  // Only ASCII whitespace around the id is dropped: a U+FEFF or U+2028 is part of it, so it stays another sender.
  sender: z.string().overwrite(trimSender).min(1, 'must be 1..100 characters').max(100, 'must be 1..100 characters'),
  // Issue 13: NUL / lone surrogates are escaped in `text`, the exact original kept in `raw` (body_raw).
  body: smsBodySchema,
  receivedAt: z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).transform((s) => new Date(s)),
});

export const BATCH_MAX = 500;

export const batchInput = z.object({
  messages: z.array(messageInput).min(1, `must hold 1..${BATCH_MAX} messages`).max(BATCH_MAX, `must hold 1..${BATCH_MAX} messages`),
});

/** `messages.3.body` → `messages[3].body`, the way a client indexes its array. */
export function indexFields(err: unknown): unknown {
  if (!isAppError(err) || err.code !== 'invalid_request' || !Array.isArray(err.details.fields)) return err;
  const fields = (err.details.fields as FieldError[]).map((f) => ({ ...f, field: f.field.replace(/\.(\d+)(?=\.|$)/g, '[$1]') }));
  return AppError.invalid(fields);
}

export const MESSAGE_STATUSES = ['received', 'matched', 'needs_review', 'unmatched', 'ignored', 'unparsed', 'duplicate', 'dismissed', 'refunded'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** The outcomes a merchant may still decide (dismiss, and later attach or refund). */
export const DECIDABLE_STATUSES = ['needs_review', 'unmatched', 'unparsed'] as const satisfies readonly MessageStatus[];

// Processing normally happens before the device gets its answer; this job only rescues a message
// whose processing was cut off (crash, deploy) after it was stored.
export const RESCUE_DELAY_MS = 30_000;

/** Raw-first storage of one checked message (also used by the backfill batch); no processing. */
export async function storeBankMessage(
  deps: Deps,
  device: ActorOf<'device'>,
  checked: z.output<typeof messageInput>,
): Promise<{ id: string; duplicate: boolean }> {
  const data = { ...checked, body: checked.body.text, bodyRaw: checked.body.raw }; // issue 13
  const bodySha256 = createHash('sha256').update(data.body, 'utf8').digest('hex');

  // The message as received; a re-sent copy is stored beside its original as a duplicate.
  const received = {
    merchantId: device.merchantId,
    deviceId: device.deviceId,
    sender: data.sender,
    body: data.body,
    bodyRaw: data.bodyRaw,
    bodySha256,
    receivedAt: data.receivedAt,
  };
  return deps.prisma.$transaction(async (tx) => {
    const inserted = await insertReceivedMessage(tx, received);
    if (inserted) {
      await deps.jobs.send('process-bank-message', { messageId: inserted.id }, { tx, startAfter: new Date(Date.now() + RESCUE_DELAY_MS) });
      return { id: inserted.id, duplicate: false };
    }
    const original = await tx.bankMessage.findFirstOrThrow({
      where: { deviceId: device.deviceId, bodySha256, receivedAt: data.receivedAt, duplicateOfId: null },
    });
    const dup = await tx.bankMessage.create({
      data: {
        ...received,
        status: 'duplicate',
        statusReason: `Same device, body and receivedAt as message ${original.id}.`,
        duplicateOfId: original.id,
        decidedAt: new Date(),
      },
    });
    return { id: dup.id, duplicate: true };
  });
}

/** Locks a stored message for its processing: the row when it is still `received`, else its outcome. */
export async function lockReceived(tx: Tx, messageId: string): Promise<BankMessage | MessageStatus> {
  if (!(await lockMessageRow(tx, messageId))) return 'unparsed';
  const message = await tx.bankMessage.findUniqueOrThrow({ where: { id: messageId } });
  return message.status === 'received' ? message : (message.status as MessageStatus);
}

/** What the parser read, stored on the message. */
export type ReadFields = Pick<ParsedSms, 'bankCode' | 'direction' | 'amount' | 'accountHint' | 'bankTime' | 'reference' | 'balance'>;

export function readFields(parsed: ParsedSms): ReadFields {
  const { bankCode, direction, amount, accountHint, bankTime, reference, balance } = parsed;
  return { bankCode, direction, amount, accountHint, bankTime, reference, balance };
}

/** The message repeats a trusted one: one deposit, this a copy. */
export async function recordDuplicate(tx: Tx, messageId: string, fields: ReadFields, cardId: string | null, original: BankFacts & { id: string }): Promise<MessageStatus> {
  await tx.bankMessage.update({
    where: { id: messageId },
    data: { ...fields, cardId, status: 'duplicate', duplicateOfId: original.id, statusReason: `The same deposit as message ${original.id} (${duplicateWhy(original, fields)}).` },
  });
  return 'duplicate';
}

function duplicateWhy(original: BankFacts, fields: ReadFields): string {
  if (original.reference !== null && original.reference === fields.reference) return `bank reference ${fields.reference}`;
  if (original.balance !== null && original.balance === fields.balance) return 'the same card, amount and resulting balance';
  return 'the same text for the same card';
}

/** What the evidence step decided, stored on the message (its card, whether it is trusted, the check it failed). */
export async function recordEvidence(
  tx: Tx,
  messageId: string,
  fields: ReadFields,
  card: { id: string; projectId: string } | null,
  evidence: { trusted: boolean; problem: EvidenceProblem | null },
): Promise<void> {
  await tx.bankMessage.update({
    where: { id: messageId },
    data: { ...fields, cardId: card?.id ?? null, projectId: card?.projectId ?? null, trusted: evidence.trusted, evidenceProblem: evidence.problem?.reason ?? null },
  });
}

/**
 * The message's outcome, and the payment, card and project it was resolved to. A `needs_review`
 * outcome carries its machine code (`reviewReason`); any other outcome clears it.
 */
export async function settle(
  tx: Tx,
  messageId: string,
  status: MessageStatus,
  statusReason: string,
  match?: { paymentId: string | null; cardId: string | null; projectId: string | null; reviewReason?: string | null },
): Promise<MessageStatus> {
  const reviewReason = status === 'needs_review' ? (match?.reviewReason ?? 'ambiguous_deposit') : null;
  await tx.bankMessage.update({
    where: { id: messageId },
    data: {
      status,
      statusReason,
      reviewReason,
      ...(status === 'needs_review' ? {} : { flaggedPaymentIds: [] }),
      ...(match ? { paymentId: match.paymentId, cardId: match.cardId, projectId: match.projectId } : {}),
    },
  });
  return status;
}
