import { getCheckout, reportCheckoutPayment } from '../../domain/checkout/checkout.js';
import { cancelCheckout } from '../../operations/cancel-checkout.js';
import { httpVia } from '../../operations/operation.js';
import { runOperation } from '../../operations/run.js';
import { checkoutStatusStream, paymentEventsStream, paymentUpdatedStream, StreamRefused } from '../../domain/checkout/streams.js';
import type { CheckoutView } from '../../domain/checkout/view.js';
import { createLinkPayment, getPublicLink, type LinkPaymentView } from '../../domain/links/public.js';
import type { Event } from '../../generated/prisma/client.js';
import { isAppError } from '../../errors.js';
import { builder } from '../builder.js';
import { EVENT_TYPES, type PaymentStatus as PaymentStatusName } from '../../domain/payments/types.js';
import { Currency, PaymentStatus } from './payment.js';


const CheckoutCard = builder.objectRef<NonNullable<CheckoutView['card']>>('CheckoutCard').implement({
  description: 'The card the payer transfers to; shown while pending and once confirmed.',
  fields: (t) => ({
    bankCode: t.exposeString('bankCode', { description: 'The bank’s code, e.g. mellat.' }),
    bankName: t.exposeString('bankName', { description: 'The bank’s Persian name.' }),
    cardNumber: t.exposeString('cardNumber', { description: 'The 16-digit card number to transfer to.' }),
    holderName: t.exposeString('holderName', { description: 'The card holder’s name as the payer’s bank shows it.' }),
  }),
});

const CheckoutProject = builder.objectRef<CheckoutView['project']>('CheckoutProject').implement({
  description: 'The merchant’s branding on the checkout page.',
  fields: (t) => ({
    displayName: t.exposeString('displayName', { description: 'The shop’s name (the project name when no displayName is set).' }),
    logoUrl: t.exposeString('logoUrl', { description: 'The shop’s logo (https).', nullable: true }),
    color: t.exposeString('color', { description: 'Accent colour, #rrggbb.', nullable: true }),
    note: t.exposeString('note', { description: 'A note for the payer.', nullable: true }),
    supportPhone: t.exposeString('supportPhone', { description: 'A phone the payer can call.', nullable: true }),
  }),
});

const CheckoutLink = builder.objectRef<NonNullable<CheckoutView['link']>>('CheckoutLink').implement({
  description: 'The payment link this payment came from.',
  fields: (t) => ({
    slug: t.exposeString('slug', { description: 'The link’s slug (/l/{slug}).' }),
    title: t.exposeString('title', { description: 'The link’s title.' }),
  }),
});

export const CheckoutViewRef = builder.objectRef<CheckoutView>('CheckoutView').implement({
  description: 'What the payer sees on the checkout page, addressed by payment token. Public.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The payment token.' }),
    paymentId: t.exposeID('paymentId', { description: 'The payment UUID (the callback’s service_ref).' }),
    status: t.field({ description: 'The payment’s state.', type: PaymentStatus, resolve: (v) => v.status as PaymentStatusName }),
    amountRequested: t.field({ description: 'The requested amount, in rials.', type: 'Amount', resolve: (v) => v.amountRequested }),
    amountFinal: t.field({ description: 'The exact amount to transfer, in rials.', type: 'Amount', resolve: (v) => v.amountFinal }),
    amountMode: t.exposeString('amountMode', { description: 'unique_code.' }),
    currency: t.field({ description: 'The unit the shop sent the amount in; the page shows the amount in it first, and in the other unit beside it.', type: Currency, resolve: (v) => v.currency }),
    displayUnit: t.exposeString('displayUnit', { description: 'The unit shown beside rials: toman.' }),
    autoConfirm: t.exposeBoolean('autoConfirm', { description: 'Whether a matching deposit confirms automatically.' }),
    description: t.exposeString('description', { description: 'The merchant’s description of the payment.', nullable: true }),
    orderId: t.exposeString('orderId', { description: 'The merchant’s order identifier.', nullable: true }),
    expiresAt: t.field({ description: 'When the pending payment expires.', type: 'DateTime', resolve: (v) => v.expiresAt }),
    remainingSeconds: t.exposeInt('remainingSeconds', { description: 'Seconds until expiry; 0 once not pending.' }),
    lateUntil: t.field({ description: 'Until when a late deposit can still confirm (expiresAt + the late window).', type: 'DateTime', resolve: (v) => v.lateUntil }),
    callbackUrl: t.exposeString('callbackUrl', { description: 'Where the page sends the payer once final; null for link payments without one.', nullable: true }),
    payerReportedPaidAt: t.field({ description: 'When the payer reported the transfer.', type: 'DateTime', nullable: true, resolve: (v) => v.payerReportedPaidAt }),
    confirmedAt: t.field({ description: 'When the payment was confirmed.', type: 'DateTime', nullable: true, resolve: (v) => v.confirmedAt }),
    receiptCode: t.exposeString('receiptCode', { description: 'Eight characters the payer can quote, set once confirmed.', nullable: true }),
    sandbox: t.exposeBoolean('sandbox', { description: 'True for a sandbox payment.' }),
    card: t.field({ description: 'The card to transfer to; null when expired, canceled or rejected.', type: CheckoutCard, nullable: true, resolve: (v) => v.card }),
    project: t.field({ description: 'The merchant’s branding.', type: CheckoutProject, resolve: (v) => v.project }),
    link: t.field({ description: 'The payment link the payment came from, if any.', type: CheckoutLink, nullable: true, resolve: (v) => v.link }),
  }),
});

type PublicLink = Awaited<ReturnType<typeof getPublicLink>>;

const PublicLinkProject = builder.objectRef<PublicLink['project']>('PublicLinkProject').implement({
  description: 'The branding shown on a payment link’s page.',
  fields: (t) => ({
    displayName: t.exposeString('displayName', { description: 'The shop’s name.' }),
    logoUrl: t.exposeString('logoUrl', { description: 'The shop’s logo.', nullable: true }),
    color: t.exposeString('color', { description: 'Accent colour, #rrggbb.', nullable: true }),
  }),
});

const PublicPaymentLink = builder.objectRef<PublicLink>('PublicPaymentLink').implement({
  description: 'A payment link as a payer sees it. Public.',
  fields: (t) => ({
    slug: t.exposeString('slug', { description: 'The link’s slug.' }),
    title: t.exposeString('title', { description: 'The link’s title.' }),
    description: t.exposeString('description', { description: 'The link’s description.', nullable: true }),
    amount: t.field({ description: 'The fixed amount in rials; null when the payer chooses.', type: 'Amount', nullable: true, resolve: (l) => l.amount }),
    minAmount: t.field({ description: 'The smallest amount the payer may choose.', type: 'Amount', nullable: true, resolve: (l) => l.minAmount }),
    maxAmount: t.field({ description: 'The largest amount the payer may choose.', type: 'Amount', nullable: true, resolve: (l) => l.maxAmount }),
    currency: t.field({ description: 'The unit the merchant chose for the link: its page asks for and shows amounts in it first (amounts here are rials).', type: Currency, resolve: (l) => l.currency }),
    project: t.field({ description: 'The merchant’s branding.', type: PublicLinkProject, resolve: (l) => l.project }),
  }),
});

type LinkPayment = LinkPaymentView;

const LinkPaymentResult = builder.objectRef<LinkPayment>('LinkPaymentResult').implement({
  description: 'A payment started from a payment link: send the payer to checkoutUrl.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The payment token.' }),
    checkoutUrl: t.exposeString('checkoutUrl', { description: 'The checkout page for this payment.' }),
    amountFinal: t.field({ description: 'The exact amount to transfer, in rials.', type: 'Amount', resolve: (r) => r.amountFinal }),
    expiresAt: t.field({ description: 'When the payment expires.', type: 'DateTime', resolve: (r) => r.expiresAt }),
  }),
});

const ReportCheckoutInput = builder.inputType('ReportCheckoutInput', {
  description: 'What the payer says about the transfer they made.',
  fields: (t) => ({
    payerCardLast4: t.string({ description: 'Four digits, Latin or Persian.' }),
    payerTrackingNumber: t.string({ description: 'At most 40 characters.' }),
    payerPhone: t.string({ description: '10..20 characters.' }),
  }),
});

const CreateLinkPaymentInput = builder.inputType('CreateLinkPaymentInput', {
  description: 'The payer’s choices on a payment link.',
  fields: (t) => ({
    amount: t.field({ type: 'Amount', description: 'In `currency`; required when the link has no fixed amount.' }),
    currency: t.field({ type: Currency, description: 'The unit of `amount`: IRR (default) or IRT (toman, × 10).' }),
    payerPhone: t.string({ description: '10..20 characters.' }),
    description: t.string({ description: 'At most 200 characters.' }),
  }),
});

const strip = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

const nullWhenMissing = async <T>(load: () => Promise<T>): Promise<T | null> => {
  try {
    return await load();
  } catch (err) {
    if (isAppError(err) && err.code === 'not_found') return null;
    throw err;
  }
};

builder.queryFields((t) => ({
  checkout: t.field({
    type: CheckoutViewRef,
    nullable: true,
    description: 'Public. Null for an unknown token.',
    args: { token: t.arg.string({ description: 'The payment token.', required: true }) },
    resolve: (_root, { token }, ctx) => nullWhenMissing(() => getCheckout(ctx.deps, token)),
  }),
  paymentLink: t.field({
    type: PublicPaymentLink,
    nullable: true,
    description: 'Public. Null for an unknown or inactive link.',
    args: { slug: t.arg.string({ description: 'The link’s slug.', required: true }) },
    resolve: (_root, { slug }, ctx) => nullWhenMissing(() => getPublicLink(ctx.deps, slug)),
  }),
}));

builder.mutationFields((t) => ({
  reportCheckoutPayment: t.field({
    description: 'Public: the payer reports the transfer (pending payments only).',
    type: CheckoutViewRef,
    args: { token: t.arg.string({ description: 'The payment token.', required: true }), input: t.arg({ description: 'What the payer reports.', type: ReportCheckoutInput, required: true }) },
    resolve: (_root, { token, input }, ctx) => reportCheckoutPayment(ctx.deps, token, strip(input)),
  }),
  cancelCheckout: t.field({
    description: 'Public: the payer gives up; pending → canceled.',
    type: CheckoutViewRef,
    args: { token: t.arg.string({ description: 'The payment token.', required: true }) },
    resolve: (_root, { token }, ctx) => runOperation(ctx.deps, cancelCheckout, ctx.actor, { id: token }, { via: httpVia(ctx.actor) }),
  }),
  createLinkPayment: t.field({
    description: 'Public: starts a payment from a payment link.',
    type: LinkPaymentResult,
    args: { slug: t.arg.string({ description: 'The link’s slug.', required: true }), input: t.arg({ description: 'The amount (when the link has none) and the payer’s details.', type: CreateLinkPaymentInput }) },
    resolve: (_root, { slug, input }, ctx) => createLinkPayment(ctx.deps, ctx.actor, slug, strip(input ?? {})),
  }),
}));

const PaymentEvent = builder.objectRef<Event>('PaymentEvent').implement({
  description: 'A payment reaching a final state (the same events webhooks carry).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The event UUID.' }),
    type: t.exposeString('type', { description: `One of ${EVENT_TYPES.join(', ')}.` }),
    // Only payment events are streamed here; a bank message's event (no payment) never is.
    paymentId: t.id({ description: 'The payment UUID.', resolve: (e) => e.paymentId! }),
    createdAt: t.expose('createdAt', { description: 'When the event happened.', type: 'DateTime' }),
    payment: t.prismaField({
      description: 'The payment now.',
      type: 'Payment',
      resolve: (query, e, _a, ctx) => ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: e.paymentId! } }),
    }),
  }),
});

/** A stream's refusal (its credential revoked) is its last value: sent as the error, then the stream completes. */
function unwrap<T>(value: T | StreamRefused): T {
  if (value instanceof StreamRefused) throw value.error;
  return value;
}

builder.subscriptionType({ description: 'Live updates over graphql-transport-ws or server-sent events on /graphql.' });

builder.subscriptionFields((t) => ({
  checkoutStatus: t.field({
    type: CheckoutViewRef,
    description: 'Public: the current checkout view first, then every change.',
    args: { token: t.arg.string({ description: 'The payment token.', required: true }) },
    subscribe: (_root, { token }, ctx) => checkoutStatusStream(ctx.deps, token),
    resolve: unwrap,
  }),
  // Each value is the whole row the stream read after the change: a prismaField tells Pothos so,
  // and every field answers from that one read. As a plain field, the fields that name a selection
  // (status, currency, checkoutUrl, metadata) were read again per value and per subscriber, and
  // could show a later change than the rest of the same value.
  paymentUpdated: t.prismaField({
    type: 'Payment',
    authScopes: { project: true, merchant: true },
    description: 'The payment now, then after every change (a project key its project’s payments, a merchant key any of its projects’).',
    args: { id: t.arg.id({ description: 'The payment UUID.', required: true }) },
    subscribe: (_root, { id }, ctx) => paymentUpdatedStream(ctx.deps, ctx.actor, String(id)),
    resolve: (_query, payment) => unwrap(payment),
  }),
  paymentEvents: t.field({
    type: PaymentEvent,
    authScopes: { project: true, merchant: true },
    description: 'Every payment event as it commits: a project key its project’s; a merchant key all its projects’ (as they are when the subscription starts), or one’s with `projectId`.',
    args: { projectId: t.arg.id({ description: 'Merchant key: only this project’s events.' }) },
    subscribe: (_root, args, ctx) => paymentEventsStream(ctx.deps, ctx.actor, args.projectId as string | null | undefined),
    resolve: unwrap,
  }),
}));
