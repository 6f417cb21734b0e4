import { createPaymentLink } from '../../domain/links/links.js';
import { builder } from '../builder.js';

builder.prismaObject('PaymentLink', {
  fields: (t) => ({
    id: t.exposeID('id'),
    projectId: t.exposeID('projectId'),
    slug: t.exposeString('slug'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    amount: t.expose('amount', { type: 'Amount', nullable: true, description: 'Fixed amount; null when the payer chooses.' }),
    minAmount: t.expose('minAmount', { type: 'Amount', nullable: true }),
    maxAmount: t.expose('maxAmount', { type: 'Amount', nullable: true }),
    callbackUrl: t.exposeString('callbackUrl', { nullable: true }),
    active: t.exposeBoolean('active'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreatePaymentLinkInput = builder.inputType('CreatePaymentLinkInput', {
  fields: (t) => ({
    projectId: t.id({ required: true }),
    slug: t.string({ required: true, description: '[a-z0-9-]{3,64}, unique across all projects.' }),
    title: t.string({ required: true }),
    description: t.string(),
    amount: t.field({ type: 'Amount', description: 'A fixed amount; omit to let the payer choose within minAmount..maxAmount.' }),
    minAmount: t.field({ type: 'Amount' }),
    maxAmount: t.field({ type: 'Amount' }),
    callbackUrl: t.string({ description: 'Where the payer goes afterwards; without one the page ends on a receipt.' }),
  }),
});

builder.mutationField('createPaymentLink', (t) =>
  t.prismaField({
    type: 'PaymentLink',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: CreatePaymentLinkInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const link = await createPaymentLink(ctx.deps, ctx.actor, input);
      return ctx.deps.prisma.paymentLink.findUniqueOrThrow({ ...query, where: { id: link.id } });
    },
  }),
);
