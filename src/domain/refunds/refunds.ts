import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError, type Refusal } from '../../errors.js';
import type { Refund } from '../../generated/prisma/client.js';
import type { Actor } from '../auth/actor.js';
import { callerScope } from '../auth/scope.js';
import { cardNumberSchema } from '../banking/card-number.js';
import { positiveRialsSchema } from '../banking/currency.js';
import { shebaSchema } from '../banking/sheba.js';
import type { Deps } from '../deps.js';
import { recordEvent } from '../payments/events.js';
import type { PaymentRow } from '../payments/types.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { uuidSchema } from '../validation.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';

/**
 * Refunds are records (docs/exceptions.md "Your decisions"): the gateway moves no money; the
 * merchant pays back from their bank and records it here. A confirmed payment's refunds never sum
 * above what it received: checked under the payment's row lock, and again by the database (the
 * refunds_apply trigger keeps `refunded_amount`, a CHECK bounds it). A deposit that belongs to no
 * payment is refunded once, whole or in part, and is then `refunded`. The verbs are operations
 * (src/operations/refund-payment.ts, refund-deposit.ts); this concern owns their rules and rows.
 */

const refundFields = z
  .object({
    amount: positiveRialsSchema,
    destinationCard: cardNumberSchema.nullish(),
    destinationSheba: shebaSchema.nullish(),
    reference: z.string().trim().min(1, 'must be 1..100 characters').max(100, 'must be 1..100 characters').nullish(),
    note: z.string().trim().max(500, 'must be at most 500 characters').nullish(),
  })
  .strict();

export const refundInput = refundFields.refine((r) => Boolean(r.destinationCard || r.destinationSheba), {
    path: ['destinationCard'],
    message: 'a destination is required: destinationCard (16 digits) or destinationSheba (IR + 24 digits)',
  });

/** The input for a loose deposit's refund: the amount defaults to the whole deposit. */
export const messageRefundInput = refundFields
  .extend({ amount: positiveRialsSchema.nullish() })
  .strict()
  .refine((r) => Boolean(r.destinationCard || r.destinationSheba), {
    path: ['destinationCard'],
    message: 'a destination is required: destinationCard (16 digits) or destinationSheba (IR + 24 digits)',
  });

/** Only the last four digits of a card are kept (and shown): `************1234`. */
export const maskCard = (card: string) => `${'*'.repeat(12)}${card.slice(-4)}`;

type RefundData = { amount: bigint; destinationCard?: string | null; destinationSheba?: string | null; reference?: string | null; note?: string | null };

function refundRow(data: RefundData) {
  return {
    amount: data.amount,
    destinationCard: data.destinationCard ? maskCard(data.destinationCard) : null,
    destinationSheba: data.destinationSheba ?? null,
    reference: data.reference ?? null,
    note: data.note ?? null,
  };
}

function paymentIdOrNotFound(id: string): string {
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Payment');
  return id;
}

/** What is left to refund of a payment: what it received less what was refunded. */
export const refundable = (p: Pick<PaymentRow, 'amountReceived' | 'refundedAmount'>) => (p.amountReceived ?? 0n) - p.refundedAmount;

export type RecordedRefund = { refund: Refund; payment: PaymentRow };

/** Only a confirmed payment is refunded, and its refunds never sum above what it received. */
export function paymentRefundRefusal(payment: Pick<PaymentRow, 'status' | 'amountReceived' | 'refundedAmount'>, amount: bigint): Refusal | null {
  if (payment.status !== 'confirmed') {
    return { code: 'invalid_state', message: `Only a confirmed payment can be refunded; this one is ${payment.status}.`, details: { status: payment.status } };
  }
  const rest = refundable(payment);
  if (amount <= rest) return null;
  return {
    code: 'refund_exceeds_payment',
    message: `Refunds would sum above the ${payment.amountReceived} rials received; at most ${rest} rials are left to refund.`,
    details: { refundable: rest.toString() },
  };
}

/**
 * The refund of a locked, confirmed payment: the row (the database's refunds_apply trigger adds it
 * to `refunded_amount`), the payment as it now is, and the event payment.refunded.
 */
export async function recordPaymentRefund(tx: Tx, jobs: JobQueue, payment: PaymentRow, data: RefundData): Promise<RecordedRefund> {
  const refund = await tx.refund.create({
    data: { ...refundRow(data), merchantId: payment.merchantId, projectId: payment.projectId, paymentId: payment.id, bankMessageId: payment.confirmedByMessageId },
  });
  const updated = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
  const event = await recordEvent(tx, jobs, 'payment.refunded', updated, { refund: { id: refund.id, amount: refund.amount.toString() } });
  await notifyPaymentChanged(tx, updated, event.id);
  return { refund, payment: updated };
}

/** A payment's refunds, oldest first; a payment the caller cannot see is not found. */
export async function listRefunds(deps: Deps, actor: Actor, paymentId: string): Promise<Refund[]> {
  const scope = callerScope(actor);
  const payment = scope.none
    ? null
    : await deps.prisma.payment.findFirst({
        where: { id: paymentIdOrNotFound(paymentId), merchantId: scope.merchantId, ...(scope.projectId ? { projectId: scope.projectId } : {}) },
        select: { id: true },
      });
  if (!payment) throw AppError.notFound('Payment');
  return deps.prisma.refund.findMany({ where: { paymentId: payment.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** Deposits that belong to no payment and may be paid back. */
export const REFUNDABLE_MESSAGE_STATUSES = ['unmatched', 'needs_review', 'dismissed'] as const;

export type RefundedMessage = { refund: Refund; messageId: string };

type LooseDeposit = { id: string; merchantId: string; projectId: string | null; direction: string | null; amount: bigint | null; status: string; paymentId: string | null };

/** Only a deposit that belongs to no payment is refunded as a deposit, and never for more than it was. */
export function depositRefundRefusal(message: LooseDeposit, amount: bigint | null | undefined): Refusal | null {
  if (message.direction !== 'deposit' || message.amount === null || !(REFUNDABLE_MESSAGE_STATUSES as readonly string[]).includes(message.status)) {
    const hint = message.paymentId && message.status === 'matched' ? ': refund its payment' : '';
    return {
      code: 'invalid_state',
      message: `Only a deposit that is ${REFUNDABLE_MESSAGE_STATUSES.join(', ')} can be refunded as a deposit; this message is ${message.status}${hint}.`,
      details: { status: message.status },
    };
  }
  if ((amount ?? message.amount) <= message.amount) return null;
  return { code: 'refund_exceeds_payment', message: `The deposit was ${message.amount} rials; a refund cannot be more.`, details: { refundable: message.amount.toString() } };
}

/** The refund of a locked loose deposit (the whole deposit unless `data.amount` says less): the row, and the message becomes `refunded`. */
export async function recordDepositRefund(tx: Tx, message: LooseDeposit, data: Omit<RefundData, 'amount'> & { amount?: bigint | null }): Promise<RefundedMessage> {
  const amount = data.amount ?? message.amount!;
  const refund = await tx.refund.create({
    data: { ...refundRow({ ...data, amount }), merchantId: message.merchantId, projectId: message.projectId, bankMessageId: message.id },
  });
  await markRefunded(tx, message.id, data.note ?? null);
  return { refund, messageId: message.id };
}

async function markRefunded(tx: Tx, messageId: string, note: string | null) {
  await tx.bankMessage.update({
    where: { id: messageId },
    data: { status: 'refunded', reviewReason: null, statusReason: 'Paid back by the merchant (a deposit that belonged to no payment).', decisionNote: note, decidedAt: new Date() },
  });
}
