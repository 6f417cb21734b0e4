import { cancelCheckout, getCheckout, reportCheckoutPayment } from '../../domain/checkout/checkout.js';
import { checkoutStatusStream, paymentEventsStream, paymentUpdatedStream, StreamRefused } from '../../domain/checkout/streams.js';
import type { CheckoutView } from '../../domain/checkout/view.js';
import { createLinkPayment, getPublicLink } from '../../domain/links/public.js';
import type { Event } from '../../generated/prisma/client.js';
import { isAppError } from '../../errors.js';
import { builder } from '../builder.js';
import { PaymentRef, PaymentStatus } from './payment.js';

type Status = 'pending' | 'confirmed' | 'expired' | 'rejected' | 'canceled';

const CheckoutCard = builder.objectRef<NonNullable<CheckoutView['card']>>('CheckoutCard').implement({
  fields: (t) => ({
    bankCode: t.exposeString('bankCode'),
    bankName: t.exposeString('bankName'),
    cardNumber: t.exposeString('cardNumber'),
    holderName: t.exposeString('holderName'),
  }),
});

const CheckoutProject = builder.objectRef<CheckoutView['project']>('CheckoutProject').implement({
  fields: (t) => ({
    displayName: t.exposeString('displayName'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    color: t.exposeString('color', { nullable: true }),
    note: t.exposeString('note', { nullable: true }),
    supportPhone: t.exposeString('supportPhone', { nullable: true }),
  }),
});

const CheckoutLink = builder.objectRef<NonNullable<CheckoutView['link']>>('CheckoutLink').implement({
  fields: (t) => ({ slug: t.exposeString('slug'), title: t.exposeString('title') }),
});

const date = (s: string | null) => (s ? new Date(s) : null);

export const CheckoutViewRef = builder.objectRef<CheckoutView>('CheckoutView').implement({
  description: 'SPEC 2.3: what the payer sees, by payment token.',
  fields: (t) => ({
    token: t.exposeString('token'),
    paymentId: t.exposeID('paymentId'),
    status: t.field({ type: PaymentStatus, resolve: (v) => v.status as Status }),
    amountRequested: t.field({ type: 'Amount', resolve: (v) => v.amountRequested }),
    amountFinal: t.field({ type: 'Amount', resolve: (v) => v.amountFinal }),
    amountMode: t.exposeString('amountMode'),
    displayUnit: t.exposeString('displayUnit'),
    autoConfirm: t.exposeBoolean('autoConfirm'),
    description: t.exposeString('description', { nullable: true }),
    orderId: t.exposeString('orderId', { nullable: true }),
    expiresAt: t.field({ type: 'DateTime', resolve: (v) => new Date(v.expiresAt!) }),
    remainingSeconds: t.exposeInt('remainingSeconds'),
    lateUntil: t.field({ type: 'DateTime', resolve: (v) => new Date(v.lateUntil!) }),
    callbackUrl: t.exposeString('callbackUrl', { nullable: true }),
    payerReportedPaidAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => date(v.payerReportedPaidAt) }),
    confirmedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => date(v.confirmedAt) }),
    receiptCode: t.exposeString('receiptCode', { nullable: true }),
    sandbox: t.exposeBoolean('sandbox'),
    card: t.field({ type: CheckoutCard, nullable: true, resolve: (v) => v.card }),
    project: t.field({ type: CheckoutProject, resolve: (v) => v.project }),
    link: t.field({ type: CheckoutLink, nullable: true, resolve: (v) => v.link }),
  }),
});

type PublicLink = Awaited<ReturnType<typeof getPublicLink>>;

const PublicLinkProject = builder.objectRef<PublicLink['project']>('PublicLinkProject').implement({
  fields: (t) => ({
    displayName: t.exposeString('displayName'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    color: t.exposeString('color', { nullable: true }),
  }),
});

const PublicPaymentLink = builder.objectRef<PublicLink>('PublicPaymentLink').implement({
  fields: (t) => ({
    slug: t.exposeString('slug'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    amount: t.field({ type: 'Amount', nullable: true, resolve: (l) => l.amount }),
    minAmount: t.field({ type: 'Amount', nullable: true, resolve: (l) => l.minAmount }),
    maxAmount: t.field({ type: 'Amount', nullable: true, resolve: (l) => l.maxAmount }),
    project: t.field({ type: PublicLinkProject, resolve: (l) => l.project }),
  }),
});

type LinkPayment = Awaited<ReturnType<typeof createLinkPayment>>;

const LinkPaymentResult = builder.objectRef<LinkPayment>('LinkPaymentResult').implement({
  description: 'SPEC 2.6.',
  fields: (t) => ({
    token: t.exposeString('token'),
    checkoutUrl: t.exposeString('checkoutUrl'),
    amountFinal: t.field({ type: 'Amount', resolve: (r) => r.amountFinal }),
    expiresAt: t.field({ type: 'DateTime', resolve: (r) => new Date(r.expiresAt) }),
  }),
});

const ReportCheckoutInput = builder.inputType('ReportCheckoutInput', {
  fields: (t) => ({
    payerCardLast4: t.string({ description: 'Four digits, Latin or Persian.' }),
    payerTrackingNumber: t.string({ description: 'At most 40 characters.' }),
    payerPhone: t.string({ description: '10..20 characters.' }),
  }),
});

const CreateLinkPaymentInput = builder.inputType('CreateLinkPaymentInput', {
  fields: (t) => ({
    amount: t.field({ type: 'Amount', description: 'Required when the link has no fixed amount.' }),
    payerPhone: t.string(),
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
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, ctx) => nullWhenMissing(() => getCheckout(ctx.deps, token)),
  }),
  paymentLink: t.field({
    type: PublicPaymentLink,
    nullable: true,
    description: 'Public. Null for an unknown or inactive link.',
    args: { slug: t.arg.string({ required: true }) },
    resolve: (_root, { slug }, ctx) => nullWhenMissing(() => getPublicLink(ctx.deps, slug)),
  }),
}));

builder.mutationFields((t) => ({
  reportCheckoutPayment: t.field({
    type: CheckoutViewRef,
    args: { token: t.arg.string({ required: true }), input: t.arg({ type: ReportCheckoutInput, required: true }) },
    resolve: (_root, { token, input }, ctx) => reportCheckoutPayment(ctx.deps, token, strip(input)),
  }),
  cancelCheckout: t.field({
    type: CheckoutViewRef,
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, ctx) => cancelCheckout(ctx.deps, token),
  }),
  createLinkPayment: t.field({
    type: LinkPaymentResult,
    args: { slug: t.arg.string({ required: true }), input: t.arg({ type: CreateLinkPaymentInput }) },
    resolve: (_root, { slug, input }, ctx) => createLinkPayment(ctx.deps, ctx.actor, slug, strip(input ?? {})),
  }),
}));

const PaymentEvent = builder.objectRef<Event>('PaymentEvent').implement({
  description: 'A payment reaching a final state (the same events webhooks carry).',
  fields: (t) => ({
    id: t.exposeID('id'),
    type: t.exposeString('type'),
    paymentId: t.exposeID('paymentId'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payment: t.prismaField({
      type: 'Payment',
      resolve: (query, e, _a, ctx) => ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: e.paymentId } }),
    }),
  }),
});

/** A stream's refusal (its credential revoked) is its last value: sent as the error, then the stream completes. */
function unwrap<T>(value: T | StreamRefused): T {
  if (value instanceof StreamRefused) throw value.error;
  return value;
}

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  checkoutStatus: t.field({
    type: CheckoutViewRef,
    description: 'Public: the current checkout view first, then every change.',
    args: { token: t.arg.string({ required: true }) },
    subscribe: (_root, { token }, ctx) => checkoutStatusStream(ctx.deps, token),
    resolve: unwrap,
  }),
  paymentUpdated: t.field({
    type: PaymentRef,
    authScopes: { project: true },
    description: 'The payment now, then after every change.',
    args: { id: t.arg.id({ required: true }) },
    subscribe: (_root, { id }, ctx) => paymentUpdatedStream(ctx.deps, ctx.actor, String(id)),
    resolve: unwrap,
  }),
  paymentEvents: t.field({
    type: PaymentEvent,
    authScopes: { project: true },
    description: 'Every payment event of the project as it commits.',
    subscribe: (_root, _args, ctx) => paymentEventsStream(ctx.deps, ctx.actor),
    resolve: unwrap,
  }),
}));
