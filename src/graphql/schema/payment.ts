import { verifyPayment, type Verification } from '../../domain/payments/actions.js';
import { createPayment, createPaymentIdempotently } from '../../domain/payments/create-payment.js';
import { getPayment, paymentOrder, paymentsFilteredFor } from '../../domain/payments/queries.js';
import { paymentTotals, type PaymentTotals } from '../../domain/payments/totals.js';
import { checkoutUrl, paymentMetadata } from '../../domain/payments/fields.js';
import { PAYMENT_STATUSES, type PaymentRow } from '../../domain/payments/types.js';
import { readPrisma } from '../../domain/reports/read-pool.js';
import type { Currency as CurrencyName } from '../../domain/banking/currency.js';
import { isAppError } from '../../errors.js';
import { verifyResult, type VerifyResult } from '../../presenters/payment.js';
import { confirmPaymentByHand } from '../../operations/confirm-by-hand.js';
import { confirmPaymentLate } from '../../operations/confirm-late.js';
import { httpVia } from '../../operations/operation.js';
import { rejectPayment } from '../../operations/reject-payment.js';
import { runOperation } from '../../operations/run.js';
import { builder } from '../builder.js';
import { pageWithinScope } from '../cursor-scope.js';
import { decided, IDEMPOTENCY_KEY_DESCRIPTION } from '../idempotency.js';
import { NodeRef } from './node.js';

export const PaymentStatus = builder.enumType('PaymentStatus', {
  description: 'Where a payment stands. Only `pending` can change, except that an `expired` payment can still be confirmed inside its late window.',
  values: {
    pending: { description: 'Waiting for the transfer; the checkout page shows the card.' },
    confirmed: { description: 'The deposit matched (or the merchant confirmed by hand). Fulfil after verify.' },
    expired: { description: 'The time limit passed with no matching deposit; a late deposit inside the late window still confirms it.' },
    rejected: { description: 'The merchant rejected it (`rejectPayment`).' },
    canceled: { description: 'The payer gave up on the checkout page.' },
  } satisfies Record<(typeof PAYMENT_STATUSES)[number], { description: string }>,
});

export const Currency = builder.enumType('Currency', {
  description: 'The unit a caller sends amounts in. Every amount the service returns is rials.',
  values: {
    IRR: { description: 'Rials (the default).' },
    IRT: { description: 'Toman: ten rials. Amounts sent are multiplied by 10 and stored as rials.' },
  } satisfies Record<CurrencyName, { description: string }>,
});

export const PaymentRef = builder.prismaObject('Payment', {
  description: 'A card-to-card payment: the amount to transfer, to which card, and how it ended. Ids are the same UUIDs as in REST.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The payment UUID, as in REST and in the callback’s `service_ref`.' }),
    status: t.field({ description: 'The payment’s state.', type: PaymentStatus, select: { status: true }, resolve: (p) => p.status as (typeof PAYMENT_STATUSES)[number] }),
    amountRequested: t.expose('amountRequested', { description: 'The amount the merchant asked for, in rials.', type: 'Amount' }),
    amountFinal: t.expose('amountFinal', { description: 'The exact amount the payer must transfer, in rials: `amountRequested` + `code`.', type: 'Amount' }),
    code: t.exposeInt('code', { description: 'Rials added to the requested amount so that payments of one size stay distinguishable (a multiple of 10).' }),
    amountMode: t.exposeString('amountMode', { description: 'How the final amount is made; `unique_code`.' }),
    currency: t.field({ description: 'The unit the amounts were sent in at creation (the checkout page shows it first); amounts are returned in rials.', type: Currency, select: { currency: true }, resolve: (p) => p.currency as CurrencyName }),
    orderId: t.exposeString('orderId', { description: 'The merchant’s order identifier, as sent at creation.', nullable: true }),
    description: t.exposeString('description', { description: 'Shown to the payer on the checkout page.', nullable: true }),
    token: t.exposeString('token', { description: 'The payment token: addresses the checkout view and page, and comes back as `service_token` on the callback.' }),
    checkoutUrl: t.string({ description: 'The hosted checkout page to send the payer to: PUBLIC_BASE_URL/pay/{token}.', select: { token: true }, resolve: (p, _a, ctx) => checkoutUrl(ctx.deps.config.publicBaseUrl, p.token) }),
    callbackUrl: t.exposeString('callbackUrl', { description: 'Where the payer is sent once the payment is final, with the service_* parameters added.', nullable: true }),
    reviewRequired: t.exposeBoolean('reviewRequired', { description: 'True when a deposit needs the merchant’s decision (see `reviewReason`).' }),
    reviewReason: t.exposeString('reviewReason', { description: 'Why the payment needs review: amount_without_code, ambiguous_deposit, payer_reported_no_deposit, or an evidence check its deposit failed: unknown_sender, balance_mismatch, bank_mismatch, unrecognized_format.', nullable: true }),
    confirmationSource: t.exposeString('confirmationSource', { description: 'How it was confirmed: auto_sms (a bank SMS or a simulated deposit) or manual.', nullable: true }),
    confirmedAt: t.expose('confirmedAt', { description: 'When the payment was confirmed.', type: 'DateTime', nullable: true }),
    verifiedAt: t.expose('verifiedAt', { description: 'When verify first saw the payment confirmed.', type: 'DateTime', nullable: true }),
    verifyCount: t.exposeInt('verifyCount', { description: 'How many times verify was called.' }),
    expiresAt: t.expose('expiresAt', { description: 'When a pending payment expires (creation + the project’s time limit).', type: 'DateTime' }),
    payerPhone: t.exposeString('payerPhone', { description: 'The payer’s phone, if given.', nullable: true }),
    payerCardLast4: t.exposeString('payerCardLast4', { description: 'The last four digits of the payer’s card, as reported or simulated.', nullable: true }),
    payerTrackingNumber: t.exposeString('payerTrackingNumber', { description: 'The bank tracking number the payer reported.', nullable: true }),
    payerReportedPaidAt: t.expose('payerReportedPaidAt', { description: 'When the payer reported the transfer on the checkout page.', type: 'DateTime', nullable: true }),
    metadata: t.field({ description: 'The merchant’s metadata, exactly as sent at creation.', type: 'JSONObject', nullable: true, select: { metadata: true }, resolve: (p) => paymentMetadata(p) }),
    sandbox: t.exposeBoolean('sandbox', { description: 'True for a payment of a sandbox project (simulated deposits only).' }),
    createdAt: t.expose('createdAt', { description: 'When the payment was created.', type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { description: 'When the payment last changed.', type: 'DateTime' }),
  }),
});

const VerifyResultRef = builder.objectRef<VerifyResult>('VerifyResult').implement({
  description: 'The answer of verify. Fulfil the order only when `verified` is true.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The payment UUID.' }),
    status: t.field({ description: 'The payment’s state now.', type: PaymentStatus, resolve: (v) => v.status as (typeof PAYMENT_STATUSES)[number] }),
    verified: t.exposeBoolean('verified', { description: 'True exactly when the payment is confirmed: the order may be fulfilled.' }),
    alreadyVerified: t.exposeBoolean('alreadyVerified', { description: 'True when an earlier verify already saw the payment confirmed.' }),
    orderId: t.exposeString('orderId', { description: 'The merchant’s order identifier.', nullable: true }),
    amountRequested: t.expose('amountRequested', { description: 'The requested amount, in rials.', type: 'Amount' }),
    amountFinal: t.expose('amountFinal', { description: 'The amount transferred, in rials.', type: 'Amount' }),
    confirmedAt: t.field({ description: 'When the payment was confirmed.', type: 'DateTime', nullable: true, resolve: (v) => (v.confirmedAt ? new Date(v.confirmedAt) : null) }),
    confirmationSource: t.exposeString('confirmationSource', { description: 'auto_sms or manual.', nullable: true }),
    payerCardLast4: t.exposeString('payerCardLast4', { description: 'The last four digits of the payer’s card, when known.', nullable: true }),
    sandbox: t.exposeBoolean('sandbox', { description: 'True for a sandbox payment.' }),
  }),
});

const CreatePaymentInput = builder.inputType('CreatePaymentInput', {
  description: 'A new payment: the amount and where the payer returns to.',
  fields: (t) => ({
    amount: t.field({ type: 'Amount', required: true, description: 'In `currency`: 10,000..1,000,000,000 rials once converted (1,000..100,000,000 toman).' }),
    currency: t.field({ type: Currency, description: 'The unit of `amount`: IRR (default) or IRT (toman, × 10).' }),
    callbackUrl: t.string({ required: true, description: 'https; its host must be allowed when the project lists hosts.' }),
    orderId: t.string({ description: 'Your order identifier, 1..64 characters; returned in verify and webhooks.' }),
    description: t.string({ description: 'At most 300 characters; shown to the payer.' }),
    payerPhone: t.string({ description: '10..20 characters.' }),
    metadata: t.field({ type: 'JSONObject', description: 'Up to 20 keys; returned exactly as sent.' }),
  }),
});

type FilterArgs = {
  status?: string | null;
  orderId?: string | null;
  from?: Date | null;
  to?: Date | null;
  reviewRequired?: boolean | null;
  reported?: boolean | null;
  amount?: string | number | bigint | null;
  cardLast4?: string | null;
  sandbox?: boolean | null;
};

/** GraphQL nulls mean "no filter", as absent query parameters do in REST. */
const filterOf = (a: FilterArgs) => ({
  status: a.status ?? undefined,
  orderId: a.orderId ?? undefined,
  from: a.from?.toISOString(),
  to: a.to?.toISOString(),
  reviewRequired: a.reviewRequired ?? undefined,
  reported: a.reported ?? undefined,
  amount: a.amount ?? undefined,
  cardLast4: a.cardLast4 ?? undefined,
  sandbox: a.sandbox ?? undefined,
});

/** The filtered list's count and sums (src/domain/payments/totals.ts), read once per connection whichever of its fields ask. */
const totalsOf = new WeakMap<object, Promise<PaymentTotals>>();
function connectionTotals(connection: object): Promise<PaymentTotals> {
  let totals = totalsOf.get(connection);
  if (!totals) {
    totals = (connection as { totalCount: () => Promise<PaymentTotals> }).totalCount();
    totalsOf.set(connection, totals);
  }
  return totals;
}

builder.queryFields((t) => ({
  payment: t.prismaField({
    type: 'Payment',
    nullable: true,
    authScopes: { project: true, merchant: true },
    description: 'Null for an id the caller cannot see. A merchant key sees the payments of all its projects.',
    args: { id: t.arg.id({ description: 'The payment UUID.', required: true }) },
    // The row as read, every column loaded: a prismaField tells Pothos so, and nothing is read again.
    resolve: async (_query, _root, { id }, ctx) => {
      try {
        return await getPayment(ctx.deps, ctx.actor, String(id));
      } catch (err) {
        if (isAppError(err) && err.code === 'not_found') return null;
        throw err;
      }
    },
  }),
  payments: t.prismaConnection({
    type: 'Payment',
    cursor: 'id',
    authScopes: { project: true, merchant: true },
    description: 'Newest first (createdAt, then id, descending); `from`/`to` inclusive. A merchant key sees all its projects’ payments, or one project’s with `projectId`.',
    args: {
      projectId: t.arg.id({ description: 'Merchant key: only this project’s payments. A project key: its own project (any other id matches nothing).' }),
      reviewRequired: t.arg.boolean({ description: 'Only payments flagged (true) or not flagged (false) for review.' }),
      reported: t.arg.boolean({ description: 'true: the payer reported paying and the payment is not confirmed (“reported paying, nothing came”); false: no report.' }),
      amount: t.arg({ type: 'Amount', description: 'Only payments whose amountFinal or amountRequested is this many rials.' }),
      cardLast4: t.arg.string({ description: 'Only payments to a card ending in these four digits, or whose payer’s card ends in them.' }),
      sandbox: t.arg.boolean({ description: 'false: live payments only; true: sandbox payments only (the dashboard’s two sides). Default both.' }),
      status: t.arg({ description: 'Only payments in this state.', type: PaymentStatus }),
      orderId: t.arg.string({ description: 'Only payments with this order identifier.' }),
      from: t.arg({ description: 'Created at or after this time.', type: 'DateTime' }),
      to: t.arg({ description: 'Created at or before this time.', type: 'DateTime' }),
    },
    // A dashboard list: the read replica when there is one (may lag; src/domain/reports/read-pool.ts).
    // The count and sums of the whole filtered list in one aggregate (the connection's fields below).
    totalCount: (_parent, args, ctx) => paymentTotals(readPrisma(ctx.deps), paymentsFilteredFor(ctx.actor, filterOf(args), args.projectId as string | null)) as unknown as number,
    resolve: (query, _root, args, ctx) => {
      const where = paymentsFilteredFor(ctx.actor, filterOf(args), args.projectId as string | null);
      const db = readPrisma(ctx.deps);
      // Issue 13: a cursor the caller cannot see answers an empty page (no existence oracle).
      return pageWithinScope(query, (id) => db.payment.count({ where: { AND: [where, { id }] } }), () =>
        db.payment.findMany({ ...query, where, orderBy: paymentOrder }),
      );
    },
  }, {
    // The prisma plugin's own totalCount field, described: the marker keeps its count-only shortcut.
    fields: (c) => ({
      totalCount: c.int({
        description: 'How many payments match the filters, over all pages.',
        extensions: { pothosPrismaTotalCount: true },
        resolve: async (connection) => (await connectionTotals(connection)).count,
      }),
      totalAmount: c.field({
        type: 'Amount',
        description: 'The sum of amountFinal of the payments matching the filters, over all pages, in rials (what they ask the payers for).',
        extensions: { pothosPrismaTotalCount: true },
        resolve: async (connection) => (await connectionTotals(connection)).amountFinal,
      }),
      totalReceived: c.field({
        type: 'Amount',
        description: 'What the matching payments brought in, less what was refunded of them, over all pages, in rials (confirmed payments only hold money).',
        extensions: { pothosPrismaTotalCount: true },
        resolve: async (connection) => (await connectionTotals(connection)).netReceived,
      }),
    }),
  }),
}));

builder.mutationFields((t) => ({
  createPayment: t.prismaField({
    description: 'Creates a payment on one of the project’s cards and reserves its fee. Fails with no_card_available (503 in REST), merchant_credit_exhausted or callback_host_not_allowed.',
    type: 'Payment',
    authScopes: { project: true },
    args: {
      input: t.arg({ description: 'The payment to create.', type: CreatePaymentInput, required: true }),
      idempotencyKey: t.arg.string({ description: `${IDEMPOTENCY_KEY_DESCRIPTION} A retried create makes one payment.` }),
    },
    resolve: async (query, _root, { input, idempotencyKey }, ctx) => {
      // The row the create returned, every column loaded: a prismaField tells Pothos so, no read-back.
      if (idempotencyKey === null || idempotencyKey === undefined) return createPayment(ctx.deps, ctx.actor, input);
      // Under a key (REST's mechanism, one key space per project): the first create's payment, read as this query asks.
      const id = await decided(idempotencyKey, 'createPayment', null, input, (p: PaymentRow) => p.id, (idem) => createPaymentIdempotently(ctx.deps, ctx.actor, input, idem!));
      return ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  verifyPayment: t.field({
    description: 'Idempotent check of the result; call it after the callback or a webhook and fulfil only when `verified` is true. With `amount`, also checks it is the payment’s.',
    type: VerifyResultRef,
    authScopes: { project: true },
    args: {
      id: t.arg.id({ description: 'The payment UUID (the callback’s `service_ref`).', required: true }),
      amount: t.arg({ type: 'Amount', description: 'The amount you expect, in `currency`: not the payment’s amountRequested → amount_mismatch (409 in REST), nothing counted.' }),
      currency: t.arg({ type: Currency, description: 'The unit of `amount`: IRR (default) or IRT (toman).' }),
      idempotencyKey: t.arg.string({ description: `${IDEMPOTENCY_KEY_DESCRIPTION} A repeat is not counted in verifyCount again.` }),
    },
    resolve: async (_root, { id, amount, currency, idempotencyKey }, ctx) => {
      const input = { amount, currency };
      // A verify result is a value, not an object of the graph: the key keeps the result itself.
      const result = await decided(idempotencyKey, 'verifyPayment', String(id), input, (v: Verification) => verifyResult(v.payment, v.alreadyVerified), (idem) =>
        verifyPayment(ctx.deps, ctx.actor, String(id), input, idem),
      );
      return result;
    },
  }),
  rejectPayment: t.prismaField({
    description: 'Rejects a pending payment; sends payment.rejected with the reason. A project key or the merchant key (any of its projects).',
    type: 'Payment',
    authScopes: { project: true, merchant: true },
    args: {
      id: t.arg.id({ description: 'The payment UUID.', required: true }),
      reason: t.arg.string({ description: '1..300 characters, sent in the webhook.', required: true }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DESCRIPTION }),
    },
    resolve: async (query, _root, { id, reason, idempotencyKey }, ctx) => {
      const paymentId = await decided(idempotencyKey, 'rejectPayment', String(id), { reason }, (p: { id: string }) => p.id, (idem) =>
        runOperation(ctx.deps, rejectPayment, ctx.actor, { id: String(id), body: { reason } }, { via: httpVia(ctx.actor), idem }),
      );
      return ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: paymentId } });
    },
  }),
  confirmPaymentManually: t.prismaField({
    description:
      'Confirms by hand a pending payment, or an expired one inside its late window (confirmationSource manual). With `late: true` (and a `note`) also an expired payment after its late window: confirmedLate, the fee charged again if it had been released. A project key or the merchant key.',
    type: 'Payment',
    authScopes: { project: true, merchant: true },
    args: {
      id: t.arg.id({ description: 'The payment UUID.', required: true }),
      note: t.arg.string({ description: 'Why, for your records (required with late). Returned as manualNote.' }),
      late: t.arg.boolean({ description: 'Also after the late window: money seen in the bank with no SMS at all. Default false.' }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DESCRIPTION }),
    },
    resolve: async (query, _root, { id, note, late, idempotencyKey }, ctx) => {
      const paymentId = await decided(idempotencyKey, 'confirmPaymentManually', String(id), { note, late }, (p: { id: string }) => p.id, (idem) =>
        // `late` picks the verb: the late confirmation also reaches past the late window.
        runOperation(ctx.deps, late ? confirmPaymentLate : confirmPaymentByHand, ctx.actor, { id: String(id), body: { note } }, { via: httpVia(ctx.actor), idem }),
      );
      return ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: paymentId } });
    },
  }),
}));
