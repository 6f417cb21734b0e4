import { CANDIDATE_REASONS } from '../../domain/matching/candidates.js';
import { candidatesForMessage, candidatesForPayment, type MessageCandidate, type PaymentCandidate } from '../../domain/matching/find-candidates.js';
import type { RecordedRefund, RefundedMessage } from '../../domain/refunds/refunds.js';
import { attachDeposit, type Attached } from '../../operations/attach-deposit.js';
import { dismissPaymentReview } from '../../operations/dismiss-payment-review.js';
import { httpVia } from '../../operations/operation.js';
import { refundDeposit } from '../../operations/refund-deposit.js';
import { refundPayment } from '../../operations/refund-payment.js';
import { runOperation } from '../../operations/run.js';
import { builder } from '../builder.js';
import { decided, IDEMPOTENCY_KEY_DESCRIPTION } from '../idempotency.js';

// docs/exceptions.md ("What you see", "Your decisions"): what the merchant needs
// to decide (review reasons, candidates) and the decisions (attach, refunds) on both types.

const CandidateReason = builder.enumType('CandidateReason', {
  description: 'Why a deposit could be a payment’s money.',
  values: {
    exact: { description: 'The deposit is exactly the payment’s amountFinal.' },
    base_amount: { description: 'The deposit is the payment’s amountRequested: the payer left the code out.' },
    unit_slip: { description: 'Ten times, or a tenth of, either amount: the payer mixed toman and rial.' },
    near_amount: { description: 'Within 10 % of either amount.' },
  } satisfies Record<(typeof CANDIDATE_REASONS)[number], { description: string }>,
});

builder.prismaObject('Refund', {
  description: 'A refund the merchant paid back from their bank, recorded here (the gateway moves no money).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The refund UUID.' }),
    paymentId: t.exposeID('paymentId', { description: 'The payment refunded; null for a deposit that belonged to no payment.', nullable: true }),
    bankMessageId: t.exposeID('bankMessageId', { description: 'The deposit refunded (a payment’s confirming message, when it has one).', nullable: true }),
    amount: t.expose('amount', { description: 'Rials paid back.', type: 'Amount' }),
    destinationCard: t.exposeString('destinationCard', { description: 'The card paid back to, masked to its last four digits.', nullable: true }),
    destinationSheba: t.exposeString('destinationSheba', { description: 'The account (sheba) paid back to.', nullable: true }),
    reference: t.exposeString('reference', { description: 'The bank’s reference of the transfer back.', nullable: true }),
    note: t.exposeString('note', { description: 'The merchant’s note.', nullable: true }),
    createdAt: t.expose('createdAt', { description: 'When it was recorded.', type: 'DateTime' }),
  }),
});

const PaymentCandidateRef = builder.objectRef<PaymentCandidate>('PaymentCandidate').implement({
  description: 'A payment a deposit could be, and why.',
  fields: (t) => ({
    reason: t.field({ description: 'Why it could be.', type: CandidateReason, resolve: (c) => c.reason }),
    payment: t.prismaField({
      description: 'The payment.',
      type: 'Payment',
      resolve: (query, c, _a, ctx) => ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: c.paymentId } }),
    }),
  }),
});

const MessageCandidateRef = builder.objectRef<MessageCandidate>('MessageCandidate').implement({
  description: 'A deposit that could be a payment’s money, and why.',
  fields: (t) => ({
    reason: t.field({ description: 'Why it could be.', type: CandidateReason, resolve: (c) => c.reason }),
    bankMessage: t.prismaField({
      description: 'The deposit’s bank message.',
      type: 'BankMessage',
      resolve: (query, c, _a, ctx) => ctx.deps.prisma.bankMessage.findUniqueOrThrow({ ...query, where: { id: c.bankMessageId } }),
    }),
  }),
});

builder.prismaObjectFields('Payment', (t) => ({
  projectId: t.exposeID('projectId', { description: 'The project it belongs to.' }),
  cardId: t.exposeID('cardId', { description: 'The card the payer transfers to.' }),
  cardLast4: t.string({ description: 'The last four digits of the card the payer transfers to.', select: { card: { select: { cardNumber: true } } }, resolve: (p) => p.card.cardNumber.slice(-4) }),
  lateUntil: t.expose('lateUntil', { description: 'The end of its late window (expiresAt + the project’s late window): until then a deposit still confirms it; after it only the merchant can (attach, or confirm with late).', type: 'DateTime' }),
  bankMessageId: t.exposeID('confirmedByMessageId', { description: 'The deposit that confirmed it (matched, reviewed or attached by hand).', nullable: true }),
  amountReceived: t.expose('amountReceived', { description: 'What came in, in rials: the deposit; amountFinal when confirmed with no message; null until confirmed.', type: 'Amount', nullable: true }),
  confirmedLate: t.exposeBoolean('confirmedLate', { description: 'Confirmed by the merchant after its late window had ended.' }),
  manualNote: t.exposeString('manualNote', { description: 'The merchant’s note on a manual confirmation or attach.', nullable: true }),
  refundedAmount: t.expose('refundedAmount', { description: 'The sum of its refunds, in rials ("0" by default).', type: 'Amount' }),
  refunds: t.relation('refunds', { description: 'Its refunds, oldest first.', query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
  candidateMessages: t.field({
    description: 'While not confirmed: unresolved deposits that could be its money, best first, at most 5 (same phone, live or sandbox like the payment, at most 48 h after its creation).',
    type: [MessageCandidateRef],
    select: { id: true, status: true, cardId: true, merchantId: true, projectId: true, sandbox: true, amountFinal: true, amountRequested: true, createdAt: true },
    resolve: (p, _a, ctx) => candidatesForPayment(ctx.deps.prisma, p),
  }),
}));

builder.prismaObjectFields('BankMessage', (t) => ({
  balance: t.expose('balance', { description: 'The account balance the SMS states after its movement (the balance chain), in rials.', type: 'Amount', nullable: true }),
  trusted: t.exposeBoolean('trusted', { description: 'True when it passed every evidence check (known sender, its card’s bank, balance chain): it may serve as the next message’s previous balance.' }),
  reviewReason: t.exposeString('reviewReason', {
    description: 'While needs_review, the machine code: amount_without_code, ambiguous_deposit, unknown_sender, balance_mismatch, bank_mismatch or unrecognized_format; else null.',
    nullable: true,
  }),
  candidates: t.field({
    description: 'For an unresolved deposit (unmatched or needs_review): the payments it could be, best first, at most 5 (not confirmed, on cards of the phone that forwarded it, created at most 48 h before its bank time).',
    type: [PaymentCandidateRef],
    select: { id: true, direction: true, amount: true, status: true, bankTime: true, receivedAt: true, merchantId: true, deviceId: true, projectId: true, simulated: true },
    resolve: (m, _a, ctx) => candidatesForMessage(ctx.deps.prisma, m),
  }),
  refunds: t.relation('refunds', { description: 'Refunds of this deposit.', query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
}));

const RefundInput = builder.inputType('RefundInput', {
  description: 'A refund the merchant paid back from their bank: the amount and where it went (a card or a sheba).',
  fields: (t) => ({
    amount: t.field({ type: 'Amount', required: true, description: 'Rials paid back (at most what is left to refund).' }),
    destinationCard: t.string({ description: '16 digits with a valid check digit (Luhn); only its last four are kept.' }),
    destinationSheba: t.string({ description: 'IR + 24 digits with valid check digits (ISO 13616).' }),
    reference: t.string({ description: 'The bank’s reference of the transfer back, 1..100 characters.' }),
    note: t.string({ description: 'At most 500 characters.' }),
  }),
});

const MessageRefundInput = builder.inputType('MessageRefundInput', {
  description: 'A refund of a deposit that belonged to no payment: the amount defaults to the whole deposit.',
  fields: (t) => ({
    amount: t.field({ type: 'Amount', description: 'Rials paid back; the whole deposit when left out.' }),
    destinationCard: t.string({ description: '16 digits with a valid check digit (Luhn); only its last four are kept.' }),
    destinationSheba: t.string({ description: 'IR + 24 digits with valid check digits (ISO 13616).' }),
    reference: t.string({ description: 'The bank’s reference of the transfer back, 1..100 characters.' }),
    note: t.string({ description: 'At most 500 characters.' }),
  }),
});

/** GraphQL nulls are "not given", as absent JSON fields are in REST. */
const given = <T extends Record<string, unknown>>(input: T) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));

builder.mutationFields((t) => ({
  dismissPaymentReview: t.prismaField({
    description:
      'Clears the review flag of a payment that is not confirmed (a payer reported paying and nothing came, or a held deposit was not this payment’s); its status does not change. Audited with the note.',
    type: 'Payment',
    authScopes: { project: true, merchant: true },
    args: {
      id: t.arg.id({ description: 'The payment UUID.', required: true }),
      note: t.arg.string({ description: 'Why, for your records.' }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DESCRIPTION }),
    },
    resolve: async (query, _root, { id, note, idempotencyKey }, ctx) => {
      const paymentId = await decided(idempotencyKey, 'dismissPaymentReview', String(id), { note }, (p: { id: string }) => p.id, (idem) =>
        runOperation(ctx.deps, dismissPaymentReview, ctx.actor, { id: String(id), body: { note } }, { via: httpVia(ctx.actor), idem }),
      );
      return ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: paymentId } });
    },
  }),
  attachBankMessage: t.prismaField({
    description:
      '“This deposit is this payment’s money.” The message: a deposit, unmatched or needs_review. The payment: pending, expired (at any time) or canceled, of the same merchant. An amount other than amountFinal or amountRequested needs acceptAmount (else amount_mismatch). Confirms it (confirmationSource manual, confirmedLate after the late window, the fee charged).',
    type: 'Payment',
    authScopes: { project: true, merchant: true },
    args: {
      messageId: t.arg.id({ description: 'The bank message UUID.', required: true }),
      paymentId: t.arg.id({ description: 'The payment UUID.', required: true }),
      acceptAmount: t.arg.boolean({ description: 'Take a deposit of another amount. Default false.' }),
      note: t.arg.string({ description: 'Why, for your records (manualNote).' }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DESCRIPTION }),
    },
    resolve: async (query, _root, args, ctx) => {
      const input = { messageId: String(args.messageId), paymentId: String(args.paymentId), acceptAmount: args.acceptAmount, note: args.note };
      const paymentId = await decided(args.idempotencyKey, 'attachBankMessage', input.messageId, input, (r: Attached) => r.payment.id, (idem) =>
        runOperation(ctx.deps, attachDeposit, ctx.actor, { body: input }, { via: httpVia(ctx.actor), idem }),
      );
      return ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: paymentId } });
    },
  }),
  recordRefund: t.prismaField({
    description: 'Records a refund of a confirmed payment (paid back from your bank). The refunds never sum above amountReceived (refund_exceeds_payment). Sends payment.refunded.',
    type: 'Refund',
    authScopes: { project: true, merchant: true },
    args: {
      paymentId: t.arg.id({ description: 'The payment UUID.', required: true }),
      input: t.arg({ type: RefundInput, required: true, description: 'The refund.' }),
      idempotencyKey: t.arg.string({ description: `${IDEMPOTENCY_KEY_DESCRIPTION} A retried refund is recorded once.` }),
    },
    resolve: async (query, _root, args, ctx) => {
      const input = given(args.input);
      const refundId = await decided(args.idempotencyKey, 'recordRefund', String(args.paymentId), input, (r: RecordedRefund) => r.refund.id, (idem) =>
        runOperation(ctx.deps, refundPayment, ctx.actor, { id: String(args.paymentId), body: input }, { via: httpVia(ctx.actor), idem }),
      );
      return ctx.deps.prisma.refund.findUniqueOrThrow({ ...query, where: { id: refundId } });
    },
  }),
  refundBankMessage: t.prismaField({
    description: 'Records the refund of a deposit that belongs to no payment (unmatched, needs_review or dismissed); the message becomes refunded.',
    type: 'Refund',
    authScopes: { project: true, merchant: true },
    args: {
      messageId: t.arg.id({ description: 'The bank message UUID.', required: true }),
      input: t.arg({ type: MessageRefundInput, required: true, description: 'The refund.' }),
      idempotencyKey: t.arg.string({ description: `${IDEMPOTENCY_KEY_DESCRIPTION} A retried refund is recorded once.` }),
    },
    resolve: async (query, _root, args, ctx) => {
      const input = given(args.input);
      const refundId = await decided(args.idempotencyKey, 'refundBankMessage', String(args.messageId), input, (r: RefundedMessage) => r.refund.id, (idem) =>
        runOperation(ctx.deps, refundDeposit, ctx.actor, { id: String(args.messageId), body: input }, { via: httpVia(ctx.actor), idem }),
      );
      return ctx.deps.prisma.refund.findUniqueOrThrow({ ...query, where: { id: refundId } });
    },
  }),
}));
