import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import type { Refund } from '../../generated/prisma/client.js';
import type { Actor } from '../auth/actor.js';
import { callerScope, requireDecider } from '../auth/scope.js';
import { recordAudit } from '../audit/audit.js';
import { cardNumberSchema } from '../banking/card-number.js';
import { positiveRialsSchema } from '../banking/currency.js';
import { shebaSchema } from '../banking/sheba.js';
import { lockVisibleMessage } from '../bank-messages/decisions.js';
import { releaseReviewFlags } from '../matching/review-flags.js';
import type { Deps } from '../deps.js';
import { auditPaymentDecision } from '../payments/decision-audit.js';
import { decide, type Answer, type Idempotent } from '../payments/idempotency.js';
import { recordEvent } from '../payments/events.js';
import { lockPayment } from '../payments/transitions.js';
import type { PaymentRow } from '../payments/types.js';
import { parseInput, uuidSchema } from '../validation.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';

/**
 * Refunds are records (CONTRACT "Exceptions"): the gateway moves no money; the merchant pays back
 * from their bank and records it here. A confirmed payment's refunds never sum above what it
 * received: checked under the payment's row lock, and again by the database (the refunds_apply
 * trigger keeps `refunded_amount`, a CHECK bounds it). A deposit that belongs to no payment is
 * refunded once, whole or in part, and is then `refunded`.
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
const messageRefundInput = refundFields.extend({ amount: positiveRialsSchema.nullish() }).strict();

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

/**
 * Records a refund of a confirmed payment; sends payment.refunded. Under an idempotency key a
 * retried refund is recorded once: the key is claimed in the refund's transaction (`decide`).
 */
export async function recordRefund(deps: Deps, actor: Actor, paymentId: string, input: unknown): Promise<RecordedRefund>;
export async function recordRefund(deps: Deps, actor: Actor, paymentId: string, input: unknown, idem: Idempotent<RecordedRefund> | undefined): Promise<RecordedRefund | Answer>;
export async function recordRefund(deps: Deps, actor: Actor, paymentId: string, input: unknown, idem?: Idempotent<RecordedRefund>): Promise<RecordedRefund | Answer> {
  const scope = callerScope(actor);
  requireDecider(actor);
  const data = parseInput(refundInput, input);
  return decide(deps, actor, idem, async (tx) => {
    const payment = await lockPayment(tx, paymentIdOrNotFound(paymentId), scope);
    if (payment.status !== 'confirmed') {
      throw new AppError('invalid_state', `Only a confirmed payment can be refunded; this one is ${payment.status}.`, { status: payment.status });
    }
    const rest = refundable(payment);
    if (data.amount > rest) {
      throw new AppError('refund_exceeds_payment', `Refunds would sum above the ${payment.amountReceived} rials received; at most ${rest} rials are left to refund.`, {
        refundable: rest.toString(),
      });
    }
    const refund = await tx.refund.create({
      data: { ...refundRow(data), merchantId: payment.merchantId, projectId: payment.projectId, paymentId: payment.id, bankMessageId: payment.confirmedByMessageId },
    });
    const updated = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
    const event = await recordEvent(tx, deps.jobs, 'payment.refunded', updated, { refund: { id: refund.id, amount: refund.amount.toString() } });
    await notifyPaymentChanged(tx, updated, event.id);
    await auditPaymentDecision(tx, actor, 'payment.refunded', payment, updated, data.note ?? null);
    await recordAudit(tx, actor, {
      action: 'refund.recorded',
      subjectType: 'refund',
      subjectId: refund.id,
      projectId: payment.projectId,
      note: data.note ?? null,
      changes: { amount: { from: null, to: refund.amount.toString() }, paymentId: { from: null, to: payment.id } },
    });
    return { refund, payment: updated };
  });
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

/** Refunds a deposit that belongs to no payment: the message becomes `refunded`. */
export async function refundBankMessage(deps: Deps, actor: Actor, messageId: string, input: unknown): Promise<RefundedMessage>;
export async function refundBankMessage(deps: Deps, actor: Actor, messageId: string, input: unknown, idem: Idempotent<RefundedMessage> | undefined): Promise<RefundedMessage | Answer>;
export async function refundBankMessage(deps: Deps, actor: Actor, messageId: string, input: unknown, idem?: Idempotent<RefundedMessage>): Promise<RefundedMessage | Answer> {
  callerScope(actor);
  requireDecider(actor);
  const data = parseInput(messageRefundInput, input);
  if (!data.destinationCard && !data.destinationSheba) {
    throw AppError.invalid([{ field: 'destinationCard', message: 'a destination is required: destinationCard (16 digits) or destinationSheba (IR + 24 digits)' }]);
  }
  return decide(deps, actor, idem, async (tx) => {
    const message = await lockVisibleMessage(tx, actor, messageId);
    if (message.direction !== 'deposit' || message.amount === null || !(REFUNDABLE_MESSAGE_STATUSES as readonly string[]).includes(message.status)) {
      throw new AppError('invalid_state', `Only a deposit that is ${REFUNDABLE_MESSAGE_STATUSES.join(', ')} can be refunded as a deposit; this message is ${message.status}${message.paymentId && message.status === 'matched' ? ': refund its payment' : ''}.`, {
        status: message.status,
      });
    }
    const amount = data.amount ?? message.amount;
    if (amount > message.amount) {
      throw new AppError('refund_exceeds_payment', `The deposit was ${message.amount} rials; a refund cannot be more.`, { refundable: message.amount.toString() });
    }
    const refund = await tx.refund.create({
      data: { ...refundRow({ ...data, amount }), merchantId: message.merchantId, projectId: message.projectId, bankMessageId: message.id },
    });
    await markRefunded(tx, message.id, data.note ?? null);
    await releaseReviewFlags(tx, message);
    await recordAudit(tx, actor, {
      action: 'bank_message.refunded',
      subjectType: 'bank_message',
      subjectId: message.id,
      projectId: message.projectId,
      merchantId: message.merchantId,
      note: data.note ?? null,
      changes: { status: { from: message.status, to: 'refunded' }, refundId: { from: null, to: refund.id }, amount: { from: null, to: amount.toString() } },
    });
    return { refund, messageId: message.id };
  });
}

async function markRefunded(tx: Tx, messageId: string, note: string | null) {
  await tx.bankMessage.update({
    where: { id: messageId },
    data: { status: 'refunded', reviewReason: null, statusReason: 'Paid back by the merchant (a deposit that belonged to no payment).', decisionNote: note, decidedAt: new Date() },
  });
}
