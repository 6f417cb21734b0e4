import type { ChainLink } from '../../domain/bank-messages/chain.js';
import { chainHeadOf } from '../../domain/bank-messages/store/evidence.js';
import type { Deps } from '../../domain/deps.js';
import { bankName } from '../../domain/cards/banks.js';
import { createCard, updateCard } from '../../domain/cards/cards.js';
import { cardUsage, type CapUsage } from '../../domain/cards/store/usage.js';
import { builder } from '../builder.js';
import { NodeRef } from './node.js';

const CardUsage = builder.objectRef<CapUsage>('CardUsage').implement({
  description:
    'What counts against a card’s caps in one period, exactly as payment creation counts it: the card’s pending and confirmed payments created in the period, by their amountFinal. A new payment is refused (503 no_card_available) when `count` has reached the count cap, or when `amount` plus its amountFinal would pass the amount cap.',
  fields: (t) => ({
    amount: t.field({ description: 'Rials: the sum of those payments’ amountFinal.', type: 'Amount', resolve: (u) => u.amount }),
    count: t.exposeInt('count', { description: 'How many payments count.' }),
    since: t.field({ description: 'Where the period started: midnight Tehran time of today, or of the first day of this Jalali month.', type: 'DateTime', resolve: (u) => u.since }),
  }),
});

// lastKnownBalance and lastKnownBalanceAt read the chain's head once per card and request.
const heads = new WeakMap<object, Map<string, Promise<ChainLink | null>>>();
function headOf(ctx: { deps: Deps }, cardId: string): Promise<ChainLink | null> {
  const seen = heads.get(ctx) ?? new Map<string, Promise<ChainLink | null>>();
  heads.set(ctx, seen);
  if (!seen.has(cardId)) seen.set(cardId, chainHeadOf(ctx.deps.prisma, cardId));
  return seen.get(cardId)!;
}

builder.prismaObject('Card', {
  description: 'A bank card payers transfer to, with the phone that forwards its deposit SMS and optional daily and monthly caps.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The card UUID.' }),
    projectId: t.exposeID('projectId', { description: 'The project whose payments use this card.' }),
    deviceId: t.exposeID('deviceId', { description: 'The phone that forwards this card’s SMS; null only on sandbox projects.', nullable: true }),
    bankCode: t.exposeString('bankCode', { description: 'The bank, from the catalog (e.g. mellat).' }),
    bankName: t.string({ description: 'The bank’s Persian name.', select: { bankCode: true }, resolve: (c) => bankName(c.bankCode) }),
    cardNumber: t.exposeString('cardNumber', { description: 'The 16-digit card number shown to payers.' }),
    accountNumber: t.exposeString('accountNumber', { description: 'The account number, when bank SMS name the account.', nullable: true }),
    holderName: t.exposeString('holderName', { description: 'The name payers see as the card holder.' }),
    smsSender: t.exposeString('smsSender', {
      description: 'A sender id the merchant vouches for, for this card’s bank SMS, besides the bank’s known senders; null = only those.',
      nullable: true,
    }),
    dailyAmountCap: t.expose('dailyAmountCap', { description: 'Most rials of pending + confirmed payments per Tehran day; null = no cap.', type: 'Amount', nullable: true }),
    dailyCountCap: t.exposeInt('dailyCountCap', { description: 'Most payments per Tehran day; null = no cap.', nullable: true }),
    monthlyAmountCap: t.expose('monthlyAmountCap', { description: 'Most rials of pending + confirmed payments per Jalali month (Tehran time); null = no cap.', type: 'Amount', nullable: true }),
    monthlyCountCap: t.exposeInt('monthlyCountCap', { description: 'Most pending + confirmed payments per Jalali month (Tehran time); null = no cap.', nullable: true }),
    usedToday: t.field({
      description: 'What counts now against dailyAmountCap and dailyCountCap: pending + confirmed payments created on this card since midnight Tehran time.',
      type: CardUsage,
      select: { id: true },
      resolve: async (card, _args, ctx) => (await cardUsage(ctx.deps, card.id)).today,
    }),
    usedThisMonth: t.field({
      description: 'What counts now against monthlyAmountCap and monthlyCountCap: pending + confirmed payments created on this card since this Jalali month started (Tehran time).',
      type: CardUsage,
      select: { id: true },
      resolve: async (card, _args, ctx) => (await cardUsage(ctx.deps, card.id)).thisMonth,
    }),
    sheba: t.exposeString('sheba', { description: 'The card account’s IBAN (sheba): IR + 24 digits.', nullable: true }),
    lastKnownBalance: t.field({
      description:
        'Rials: the balance chain’s current reference, which the next bank SMS’s balance must follow (previous ± amount = new): the balance of the card’s trusted message latest in the bank’s order, or the opening balance when that is later; null when the card has neither (the first trusted SMS becomes the reference).',
      type: 'Amount',
      nullable: true,
      select: { id: true },
      resolve: async (card, _args, ctx) => (await headOf(ctx, card.id))?.balance ?? null,
    }),
    lastKnownBalanceAt: t.field({
      description: 'The bank time of lastKnownBalance (its arrival when the SMS had none; the minute an opening balance was given); null with it.',
      type: 'DateTime',
      nullable: true,
      select: { id: true },
      resolve: async (card, _args, ctx) => (await headOf(ctx, card.id))?.at ?? null,
    }),
    active: t.exposeBoolean('active', { description: 'False stops new payments on the card; its live payments still confirm.' }),
    lastUsedAt: t.expose('lastUsedAt', { description: 'When a payment last chose this card (least recently used goes first).', type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { description: 'When the card was added.', type: 'DateTime' }),
  }),
});

const CreateCardInput = builder.inputType('CreateCardInput', {
  description: 'A card to take payments on.',
  fields: (t) => ({
    projectId: t.id({ description: 'The project UUID.', required: true }),
    deviceId: t.id({ description: 'Required for live projects: the phone that forwards this card’s SMS.' }),
    bankCode: t.string({ description: 'A bank code from the catalog, e.g. mellat, melli, saman.', required: true }),
    cardNumber: t.string({ description: '16 digits; spaces, dashes and Persian digits are accepted.', required: true }),
    accountNumber: t.string({ description: 'The account number, for banks whose SMS name the account.' }),
    holderName: t.string({ description: 'The name payers see.', required: true }),
    smsSender: t.string({ description: 'A sender id of this card’s bank SMS that the service does not know yet (e.g. +98700717); deposits from unknown senders wait for review.' }),
    dailyAmountCap: t.field({ description: 'Daily cap in rials; omit for none.', type: 'Amount' }),
    dailyCountCap: t.int({ description: 'Daily count cap; omit for none.' }),
    monthlyAmountCap: t.field({ description: 'Cap in rials per Jalali month (Tehran time); omit for none.', type: 'Amount' }),
    monthlyCountCap: t.int({ description: 'Count cap per Jalali month (Tehran time); omit for none.' }),
    sheba: t.string({ description: 'The account’s IBAN: IR + 24 digits with valid check digits (spaces and Persian digits accepted).' }),
    openingBalance: t.field({
      description:
        'Rials: the balance the bank’s app shows now. It is the card’s first balance reference: a first deposit SMS whose balance is not this + its amount is held (balance_mismatch). Omit it and the first SMS from the bank’s sender becomes the reference (trust on first use).',
      type: 'Amount',
    }),
  }),
});

const UpdateCardInput = builder.inputType('UpdateCardInput', {
  description: 'Only the fields given change; null clears a nullable field.',
  fields: (t) => ({
    deviceId: t.id({ description: 'Moves the card to another phone; its live payments move with it.' }),
    bankCode: t.string({ description: 'A bank code from the catalog.' }),
    cardNumber: t.string({ description: '16 digits.' }),
    accountNumber: t.string({ description: 'The account number.' }),
    holderName: t.string({ description: 'The name payers see.' }),
    smsSender: t.string({ description: 'A sender id of this card’s bank SMS; null removes it.' }),
    dailyAmountCap: t.field({ description: 'Daily cap in rials; null removes it.', type: 'Amount' }),
    dailyCountCap: t.int({ description: 'Daily count cap; null removes it.' }),
    monthlyAmountCap: t.field({ description: 'Cap in rials per Jalali month; null removes it.', type: 'Amount' }),
    monthlyCountCap: t.int({ description: 'Count cap per Jalali month; null removes it.' }),
    sheba: t.string({ description: 'The account’s IBAN; null removes it.' }),
    active: t.boolean({ description: 'False stops new payments on the card.' }),
    openingBalance: t.field({
      description:
        'Rials: the balance the bank’s app shows now. Re-anchors the balance chain: the next SMS must follow it, whatever the chain said before (recorded in the audit log). Deposits already held stay held. null removes it (trust on first use when the card has no trusted SMS).',
      type: 'Amount',
    }),
  }),
});

builder.mutationFields((t) => ({
  createCard: t.prismaField({
    description: 'Adds a card to a project. Merchant key.',
    type: 'Card',
    authScopes: { merchant: true },
    args: { input: t.arg({ description: 'The card to add.', type: CreateCardInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const card = await createCard(ctx.deps, ctx.actor, input);
      return ctx.deps.prisma.card.findUniqueOrThrow({ ...query, where: { id: card.id } });
    },
  }),
  updateCard: t.prismaField({
    description: 'Changes a card, e.g. moves it to a new phone (deviceId) or sets caps. Merchant key.',
    type: 'Card',
    authScopes: { merchant: true },
    args: { id: t.arg.id({ description: 'The card UUID.', required: true }), input: t.arg({ description: 'The fields to change.', type: UpdateCardInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const card = await updateCard(ctx.deps, ctx.actor, String(id), input);
      return ctx.deps.prisma.card.findUniqueOrThrow({ ...query, where: { id: card.id } });
    },
  }),
}));
