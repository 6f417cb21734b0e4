import { bankName } from '../../domain/cards/banks.js';
import { createCard, updateCard } from '../../domain/cards/cards.js';
import { builder } from '../builder.js';

builder.prismaObject('Card', {
  fields: (t) => ({
    id: t.exposeID('id'),
    projectId: t.exposeID('projectId'),
    deviceId: t.exposeID('deviceId', { nullable: true }),
    bankCode: t.exposeString('bankCode'),
    bankName: t.string({ select: { bankCode: true }, resolve: (c) => bankName(c.bankCode) }),
    cardNumber: t.exposeString('cardNumber'),
    accountNumber: t.exposeString('accountNumber', { nullable: true }),
    holderName: t.exposeString('holderName'),
    dailyAmountCap: t.expose('dailyAmountCap', { type: 'Amount', nullable: true }),
    dailyCountCap: t.exposeInt('dailyCountCap', { nullable: true }),
    active: t.exposeBoolean('active'),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreateCardInput = builder.inputType('CreateCardInput', {
  fields: (t) => ({
    projectId: t.id({ required: true }),
    deviceId: t.id({ description: 'Required for live projects: the phone that forwards this card’s SMS.' }),
    bankCode: t.string({ required: true }),
    cardNumber: t.string({ required: true }),
    accountNumber: t.string(),
    holderName: t.string({ required: true }),
    dailyAmountCap: t.field({ type: 'Amount' }),
    dailyCountCap: t.int(),
  }),
});

const UpdateCardInput = builder.inputType('UpdateCardInput', {
  description: 'Only the fields given change; null clears a nullable field.',
  fields: (t) => ({
    deviceId: t.id(),
    bankCode: t.string(),
    cardNumber: t.string(),
    accountNumber: t.string(),
    holderName: t.string(),
    dailyAmountCap: t.field({ type: 'Amount' }),
    dailyCountCap: t.int(),
    active: t.boolean(),
  }),
});

builder.mutationFields((t) => ({
  createCard: t.prismaField({
    type: 'Card',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: CreateCardInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const card = await createCard(ctx.deps, ctx.actor, input);
      return ctx.deps.prisma.card.findUniqueOrThrow({ ...query, where: { id: card.id } });
    },
  }),
  updateCard: t.prismaField({
    type: 'Card',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCardInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const card = await updateCard(ctx.deps, ctx.actor, String(id), input);
      return ctx.deps.prisma.card.findUniqueOrThrow({ ...query, where: { id: card.id } });
    },
  }),
}));
