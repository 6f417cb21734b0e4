import { createPaymentLink, updatePaymentLink } from '../../domain/links/links.js';
import { builder } from '../builder.js';
import { NodeRef } from './node.js';
import { Currency } from './payment.js';

builder.prismaObject('PaymentLink', {
  description: 'A reusable page (/l/{slug}) where payers start payments themselves.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The link UUID.' }),
    projectId: t.exposeID('projectId', { description: 'The project its payments belong to.' }),
    slug: t.exposeString('slug', { description: 'The link’s slug, unique across all projects.' }),
    title: t.exposeString('title', { description: 'The title shown to payers.' }),
    description: t.exposeString('description', { description: 'The description shown to payers.', nullable: true }),
    amount: t.expose('amount', { type: 'Amount', nullable: true, description: 'Fixed amount; null when the payer chooses.' }),
    minAmount: t.expose('minAmount', { description: 'The smallest amount a payer may choose.', type: 'Amount', nullable: true }),
    maxAmount: t.expose('maxAmount', { description: 'The largest amount a payer may choose.', type: 'Amount', nullable: true }),
    currency: t.field({ description: 'The unit its amounts were sent in (they are returned in rials); its page shows it first.', type: Currency, select: { currency: true }, resolve: (l) => l.currency as 'IRR' | 'IRT' }),
    callbackUrl: t.exposeString('callbackUrl', { description: 'Where payers go afterwards; null ends on a receipt.', nullable: true }),
    active: t.exposeBoolean('active', { description: 'False hides the link (404).' }),
    createdAt: t.expose('createdAt', { description: 'When the link was created.', type: 'DateTime' }),
  }),
});

const CreatePaymentLinkInput = builder.inputType('CreatePaymentLinkInput', {
  description: 'A new payment link.',
  fields: (t) => ({
    projectId: t.id({ description: 'The project UUID.', required: true }),
    slug: t.string({ required: true, description: '[a-z0-9-]{3,64}, unique across all projects.' }),
    title: t.string({ description: 'The title payers see.', required: true }),
    description: t.string({ description: 'A description payers see.' }),
    currency: t.field({ type: Currency, description: 'The unit of amount, minAmount and maxAmount: IRR (rials, the default) or IRT (toman, stored × 10). The link page asks for and shows amounts in it first.' }),
    amount: t.field({ type: 'Amount', description: 'A fixed amount (in currency); omit to let the payer choose within minAmount..maxAmount.' }),
    minAmount: t.field({ description: 'The smallest amount a payer may choose (without a fixed amount), in currency.', type: 'Amount' }),
    maxAmount: t.field({ description: 'The largest amount a payer may choose, in currency.', type: 'Amount' }),
    callbackUrl: t.string({ description: 'Where the payer goes afterwards; without one the page ends on a receipt.' }),
  }),
});

builder.mutationField('createPaymentLink', (t) =>
  t.prismaField({
    description: 'Creates a payment link. Merchant key. 409 slug_taken when the slug is used.',
    type: 'PaymentLink',
    authScopes: { merchant: true },
    args: { input: t.arg({ description: 'The link to create.', type: CreatePaymentLinkInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const link = await createPaymentLink(ctx.deps, ctx.actor, input);
      return ctx.deps.prisma.paymentLink.findUniqueOrThrow({ ...query, where: { id: link.id } });
    },
  }),
);

const UpdatePaymentLinkInput = builder.inputType('UpdatePaymentLinkInput', {
  description: 'What may change on a payment link; its slug, unit and amounts stay as created.',
  fields: (t) => ({
    title: t.string({ description: 'The title payers see.' }),
    description: t.string({ description: 'A description payers see (null clears it).' }),
    callbackUrl: t.string({ description: 'Where the payer goes afterwards (null: the page ends on a receipt).' }),
    active: t.boolean({ description: 'false takes the link down (404, no payments); true puts it back.' }),
  }),
});

builder.mutationField('updatePaymentLink', (t) =>
  t.prismaField({
    description: 'Changes a payment link’s title, description or callback, or takes it down (active: false). Merchant key or owner.',
    type: 'PaymentLink',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ description: 'The link UUID.', required: true }), input: t.arg({ description: 'The changes.', type: UpdatePaymentLinkInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const link = await updatePaymentLink(ctx.deps, ctx.actor, String(id), input);
      return ctx.deps.prisma.paymentLink.findUniqueOrThrow({ ...query, where: { id: link.id } });
    },
  }),
);
