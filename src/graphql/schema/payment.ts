import { confirmPaymentManually, rejectPayment, verifyPayment } from '../../domain/payments/actions.js';
import { createPayment } from '../../domain/payments/create-payment.js';
import { getPayment, paymentOrder, paymentsFilteredFor } from '../../domain/payments/queries.js';
import { checkoutUrl, verifyResult, type VerifyResult } from '../../domain/payments/record.js';
import { PAYMENT_STATUSES } from '../../domain/payments/types.js';
import { isAppError } from '../../errors.js';
import { builder } from '../builder.js';

export const PaymentStatus = builder.enumType('PaymentStatus', { values: PAYMENT_STATUSES });

export const PaymentRef = builder.prismaObject('Payment', {
  description: 'SPEC 2.1. Ids are the same UUIDs as in REST.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: PaymentStatus, select: { status: true }, resolve: (p) => p.status as (typeof PAYMENT_STATUSES)[number] }),
    amountRequested: t.expose('amountRequested', { type: 'Amount' }),
    amountFinal: t.expose('amountFinal', { type: 'Amount' }),
    code: t.exposeInt('code'),
    amountMode: t.exposeString('amountMode'),
    orderId: t.exposeString('orderId', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    token: t.exposeString('token'),
    checkoutUrl: t.string({ select: { token: true }, resolve: (p, _a, ctx) => checkoutUrl(ctx.deps.config.publicBaseUrl, p.token) }),
    callbackUrl: t.exposeString('callbackUrl', { nullable: true }),
    reviewRequired: t.exposeBoolean('reviewRequired'),
    reviewReason: t.exposeString('reviewReason', { nullable: true }),
    confirmationSource: t.exposeString('confirmationSource', { nullable: true }),
    confirmedAt: t.expose('confirmedAt', { type: 'DateTime', nullable: true }),
    verifiedAt: t.expose('verifiedAt', { type: 'DateTime', nullable: true }),
    verifyCount: t.exposeInt('verifyCount'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    payerPhone: t.exposeString('payerPhone', { nullable: true }),
    payerCardLast4: t.exposeString('payerCardLast4', { nullable: true }),
    payerTrackingNumber: t.exposeString('payerTrackingNumber', { nullable: true }),
    payerReportedPaidAt: t.expose('payerReportedPaidAt', { type: 'DateTime', nullable: true }),
    metadata: t.field({ type: 'JSONObject', nullable: true, select: { metadata: true }, resolve: (p) => p.metadata ?? null }),
    sandbox: t.exposeBoolean('sandbox'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const VerifyResultRef = builder.objectRef<VerifyResult>('VerifyResult').implement({
  description: 'SPEC 2.2. Fulfil the order only when `verified` is true.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: PaymentStatus, resolve: (v) => v.status as (typeof PAYMENT_STATUSES)[number] }),
    verified: t.exposeBoolean('verified'),
    alreadyVerified: t.exposeBoolean('alreadyVerified'),
    orderId: t.exposeString('orderId', { nullable: true }),
    amountRequested: t.expose('amountRequested', { type: 'Amount' }),
    amountFinal: t.expose('amountFinal', { type: 'Amount' }),
    confirmedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => (v.confirmedAt ? new Date(v.confirmedAt) : null) }),
    confirmationSource: t.exposeString('confirmationSource', { nullable: true }),
    payerCardLast4: t.exposeString('payerCardLast4', { nullable: true }),
    sandbox: t.exposeBoolean('sandbox'),
  }),
});

const CreatePaymentInput = builder.inputType('CreatePaymentInput', {
  fields: (t) => ({
    amount: t.field({ type: 'Amount', required: true, description: 'Rials, 10,000..1,000,000,000.' }),
    callbackUrl: t.string({ required: true, description: 'https; its host must be allowed when the project lists hosts.' }),
    orderId: t.string(),
    description: t.string(),
    payerPhone: t.string(),
    metadata: t.field({ type: 'JSONObject', description: 'Up to 20 keys; returned exactly as sent.' }),
  }),
});

type FilterArgs = { status?: string | null; orderId?: string | null; from?: Date | null; to?: Date | null };

/** GraphQL nulls mean "no filter", as absent query parameters do in REST. */
const filterOf = (a: FilterArgs) => ({
  status: a.status ?? undefined,
  orderId: a.orderId ?? undefined,
  from: a.from?.toISOString(),
  to: a.to?.toISOString(),
});

builder.queryFields((t) => ({
  payment: t.prismaField({
    type: 'Payment',
    nullable: true,
    authScopes: { project: true },
    description: 'Null for an id the caller cannot see.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      try {
        const payment = await getPayment(ctx.deps, ctx.actor, String(id));
        return ctx.deps.prisma.payment.findUnique({ ...query, where: { id: payment.id } });
      } catch (err) {
        if (isAppError(err) && err.code === 'not_found') return null;
        throw err;
      }
    },
  }),
  payments: t.prismaConnection({
    type: 'Payment',
    cursor: 'id',
    authScopes: { project: true },
    description: 'Newest first (createdAt, then id, descending); `from`/`to` inclusive.',
    args: {
      status: t.arg({ type: PaymentStatus }),
      orderId: t.arg.string(),
      from: t.arg({ type: 'DateTime' }),
      to: t.arg({ type: 'DateTime' }),
    },
    totalCount: (_parent, args, ctx) => ctx.deps.prisma.payment.count({ where: paymentsFilteredFor(ctx.actor, filterOf(args)) }),
    resolve: (query, _root, args, ctx) =>
      ctx.deps.prisma.payment.findMany({ ...query, where: paymentsFilteredFor(ctx.actor, filterOf(args)), orderBy: paymentOrder }),
  }),
}));

builder.mutationFields((t) => ({
  createPayment: t.prismaField({
    type: 'Payment',
    authScopes: { project: true },
    args: { input: t.arg({ type: CreatePaymentInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const result = await createPayment(ctx.deps, ctx.actor, input);
      if (result.replayed) throw new Error('unreachable: no idempotency key over GraphQL');
      return ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: result.payment.id } });
    },
  }),
  verifyPayment: t.field({
    type: VerifyResultRef,
    authScopes: { project: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const { payment, alreadyVerified } = await verifyPayment(ctx.deps, ctx.actor, String(id));
      return verifyResult(payment, alreadyVerified);
    },
  }),
  rejectPayment: t.prismaField({
    type: 'Payment',
    authScopes: { project: true },
    args: { id: t.arg.id({ required: true }), reason: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id, reason }, ctx) => {
      const payment = await rejectPayment(ctx.deps, ctx.actor, String(id), reason);
      return ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: payment.id } });
    },
  }),
  confirmPaymentManually: t.prismaField({
    type: 'Payment',
    authScopes: { project: true },
    args: { id: t.arg.id({ required: true }), note: t.arg.string() },
    resolve: async (query, _root, { id, note }, ctx) => {
      const payment = await confirmPaymentManually(ctx.deps, ctx.actor, String(id), note);
      return ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: payment.id } });
    },
  }),
}));
