import { dismissBankMessage, visibleMessages } from '../../domain/bank-messages/decisions.js';
import { simulateDeposit } from '../../domain/sandbox/simulate.js';
import { builder } from '../builder.js';

const MESSAGE_STATUSES = ['received', 'matched', 'needs_review', 'unmatched', 'ignored', 'unparsed', 'duplicate', 'dismissed'] as const;
const BankMessageStatus = builder.enumType('BankMessageStatus', { values: MESSAGE_STATUSES });

builder.prismaObject('BankMessage', {
  description: 'One forwarded bank SMS (or simulated deposit), stored raw, with what the engine made of it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: BankMessageStatus, select: { status: true }, resolve: (m) => m.status as (typeof MESSAGE_STATUSES)[number] }),
    statusReason: t.exposeString('statusReason', { nullable: true }),
    simulated: t.exposeBoolean('simulated'),
    deviceId: t.exposeID('deviceId', { nullable: true }),
    sender: t.exposeString('sender'),
    body: t.exposeString('body'),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
    bankCode: t.exposeString('bankCode', { nullable: true }),
    direction: t.exposeString('direction', { nullable: true }),
    amount: t.expose('amount', { type: 'Amount', nullable: true }),
    accountHint: t.exposeString('accountHint', { nullable: true }),
    bankTime: t.expose('bankTime', { type: 'DateTime', nullable: true }),
    reference: t.exposeString('reference', { nullable: true }),
    paymentId: t.exposeID('paymentId', { nullable: true }),
    cardId: t.exposeID('cardId', { nullable: true }),
    duplicateOfId: t.exposeID('duplicateOfId', { nullable: true }),
    decisionNote: t.exposeString('decisionNote', { nullable: true }),
    decidedAt: t.expose('decidedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

type SimulationShape = Awaited<ReturnType<typeof simulateDeposit>>;

const SimulationResult = builder.objectRef<SimulationShape>('SimulationResult').implement({
  description: 'SPEC 2.5: what the engine decided about the simulated deposit.',
  fields: (t) => ({
    simulatedAmount: t.field({ type: 'Amount', resolve: (r) => r.simulatedAmount }),
    bankMessage: t.prismaField({
      type: 'BankMessage',
      resolve: (query, r, _a, ctx) => ctx.deps.prisma.bankMessage.findUniqueOrThrow({ ...query, where: { id: r.message.id } }),
    }),
    payment: t.prismaField({
      type: 'Payment',
      resolve: (query, r, _a, ctx) => ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: r.payment.id } }),
    }),
  }),
});

const SimulationOutcome = builder.enumType('SimulationOutcome', { values: ['match', 'base_amount', 'wrong_amount', 'custom'] as const });

const SimulateDepositInput = builder.inputType('SimulateDepositInput', {
  fields: (t) => ({
    paymentId: t.id(),
    token: t.string(),
    outcome: t.field({ type: SimulationOutcome, description: 'Default match.' }),
    amount: t.field({ type: 'Amount', description: 'Required with outcome custom.' }),
    payerCardLast4: t.string(),
  }),
});

builder.queryField('bankMessages', (t) =>
  t.prismaConnection({
    type: 'BankMessage',
    cursor: 'id',
    authScopes: { merchant: true, project: true },
    description: 'Newest first. A project sees messages resolved to it and those from devices holding its cards.',
    args: { status: t.arg({ type: BankMessageStatus }) },
    resolve: (query, _root, args, ctx) =>
      ctx.deps.prisma.bankMessage.findMany({
        ...query,
        where: { AND: [visibleMessages(ctx.actor), args.status ? { status: args.status } : {}] },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      }),
  }),
);

builder.mutationFields((t) => ({
  dismissBankMessage: t.prismaField({
    type: 'BankMessage',
    authScopes: { project: true },
    args: { id: t.arg.id({ required: true }), note: t.arg.string() },
    resolve: async (query, _root, { id, note }, ctx) => {
      const message = await dismissBankMessage(ctx.deps, ctx.actor, String(id), note);
      return ctx.deps.prisma.bankMessage.findUniqueOrThrow({ ...query, where: { id: message.id } });
    },
  }),
  simulateDeposit: t.field({
    type: SimulationResult,
    authScopes: { project: true },
    args: { input: t.arg({ type: SimulateDepositInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      simulateDeposit(ctx.deps, ctx.actor, {
        paymentId: input.paymentId ?? undefined,
        token: input.token ?? undefined,
        outcome: input.outcome ?? undefined,
        amount: input.amount ?? undefined,
        payerCardLast4: input.payerCardLast4 ?? undefined,
      }),
  }),
}));
