import { GAP_STATUSES } from '../../domain/bank-messages/gaps.js';
import { visibleGaps } from '../../domain/bank-messages/gap-decisions.js';
import { gapCandidates } from '../../domain/bank-messages/store/gaps.js';
import { readPrisma } from '../../domain/reports/read-pool.js';
import type { BalanceGap } from '../../generated/prisma/client.js';
import { httpVia } from '../../operations/operation.js';
import { resolveBalanceGap } from '../../operations/resolve-balance-gap.js';
import { runOperation } from '../../operations/run.js';
import { builder } from '../builder.js';
import { pageWithinScope } from '../cursor-scope.js';
import { decided, IDEMPOTENCY_KEY_DESCRIPTION } from '../idempotency.js';

// docs/exceptions.md "Lost messages: balance gaps": money a card's balance chain says came (or
// went) without its SMS, the payments it could be, and the merchant's decision on it.

const BalanceGapStatus = builder.enumType('BalanceGapStatus', {
  description: 'Whether the merchant has decided a balance gap.',
  values: {
    open: { description: 'Waiting for the merchant (or for the missing SMS, which closes it by itself).' },
    resolved: { description: 'Given to a payment by the merchant, or explained by the missing SMS arriving late.' },
    dismissed: { description: 'The merchant’s word that it is no payment’s money (with a note).' },
  } satisfies Record<(typeof GAP_STATUSES)[number], { description: string }>,
});

const GapCandidateReason = builder.enumType('BalanceGapCandidateReason', {
  description: 'Why a payment could be a balance gap’s money.',
  values: { missing_sms: { description: 'Its amountFinal or amountRequested is exactly the money whose SMS never came.' } },
});

const GapCandidate = builder.objectRef<{ paymentId: string }>('BalanceGapCandidate').implement({
  description: 'A payment a balance gap could be.',
  fields: (t) => ({
    reason: t.field({ description: 'Why it could be.', type: GapCandidateReason, resolve: () => 'missing_sms' as const }),
    payment: t.prismaField({
      description: 'The payment.',
      type: 'Payment',
      resolve: (query, c, _a, ctx) => ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: c.paymentId } }),
    }),
  }),
});

builder.prismaObject('BalanceGap', {
  description:
    'Money whose SMS never came: a message from the bank’s sender whose balance the card’s previous trusted balance and its own amount do not explain. Recorded once per gap; closes by itself when the missing SMS arrives.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The gap UUID.' }),
    card: t.relation('card', { description: 'The card whose chain has the gap.' }),
    fromMessage: t.relation('fromMessage', { description: 'The last trusted message before the gap; null when it is the card’s opening balance.', nullable: true }),
    fromBalance: t.expose('fromBalance', { description: 'The balance before the gap, in rials.', type: 'Amount' }),
    toMessage: t.relation('toMessage', { description: 'The held message whose balance revealed the gap (balance_mismatch).' }),
    amount: t.expose('amount', { description: 'Signed rials: positive = deposits whose SMS never came; negative = withdrawals.', type: 'Amount' }),
    detectedAt: t.expose('detectedAt', { description: 'When the gap was found.', type: 'DateTime' }),
    status: t.field({ description: 'open, resolved or dismissed.', type: BalanceGapStatus, resolve: (g) => g.status as (typeof GAP_STATUSES)[number] }),
    resolvedAt: t.expose('resolvedAt', { description: 'When it was resolved or dismissed.', type: 'DateTime', nullable: true }),
    resolvedPayment: t.relation('resolvedPayment', { description: 'The payment the merchant gave the gap’s money to.', nullable: true }),
    explainedByMessage: t.relation('explainedByMessage', { description: 'The late SMS that explained the gap (closing it by itself, or arriving after it was resolved).', nullable: true }),
    note: t.exposeString('decisionNote', { description: 'The merchant’s note.', nullable: true }),
    candidates: t.field({
      description: 'While open and positive: payments of the card’s phone (pending, expired or canceled, live, created at most 48 h before the gap’s end) whose amountFinal or amountRequested is the gap’s amount; exact amountFinal first.',
      type: [GapCandidate],
      select: { cardId: true, amount: true, toAt: true, status: true },
      resolve: async (g, _a, ctx) => (g.status === 'open' ? (await gapCandidates(ctx.deps.prisma, g)).map((c) => ({ paymentId: c.id })) : []),
    }),
  }),
});

builder.prismaObjectFields('Card', (t) => ({
  openGaps: t.relation('balanceGaps', {
    description: 'The card’s open balance gaps, oldest first.',
    query: { where: { status: 'open' }, orderBy: [{ toAt: 'asc' }, { id: 'asc' }] },
  }),
}));

builder.prismaObjectFields('BankMessage', (t) => ({
  balanceGap: t.prismaField({
    description: 'The balance gap this held message revealed (or a copy of it revealed), if any.',
    type: 'BalanceGap',
    nullable: true,
    select: { id: true, cardId: true, balance: true, bankTime: true, receivedAt: true },
    resolve: async (query, m, _a, ctx) => {
      const own = await ctx.deps.prisma.balanceGap.findFirst({ ...query, where: { toMessageId: m.id } });
      if (own || !m.cardId || m.balance === null) return own;
      return ctx.deps.prisma.balanceGap.findFirst({ ...query, where: { cardId: m.cardId, toAt: m.bankTime ?? m.receivedAt, toBalance: m.balance } });
    },
  }),
}));

builder.queryField('balanceGaps', (t) =>
  t.prismaConnection({
    type: 'BalanceGap',
    cursor: 'id',
    authScopes: { merchant: true, project: true },
    description: 'Balance gaps, newest first: a merchant credential sees all of the merchant’s (or one project’s with projectId), a project key its project’s.',
    args: {
      projectId: t.arg.id({ description: 'Only gaps on cards of this project.' }),
      status: t.arg({ type: BalanceGapStatus, description: 'Only gaps in this status.' }),
    },
    resolve: (query, _root, args, ctx) => {
      const where = { AND: [visibleGaps(ctx.actor, args.projectId == null ? null : String(args.projectId)), args.status ? { status: args.status } : {}] };
      const db = readPrisma(ctx.deps);
      return pageWithinScope(query, (id) => db.balanceGap.count({ where: { AND: [where, { id }] } }), () =>
        db.balanceGap.findMany({ ...query, where, orderBy: [{ detectedAt: 'desc' }, { id: 'desc' }] }),
      );
    },
  }),
);

builder.mutationFields((t) => ({
  resolveBalanceGap: t.prismaField({
    description:
      'Decides an open balance gap. With paymentId (one of its candidates): “the missing money is this payment’s”: the payment is confirmed (confirmationSource manual, confirmedLate after its late window, the fee charged, the gap its evidence) and the gap resolved. Without: the gap is dismissed (note required). Either way the held message becomes the card’s chain reference; a resolution also matches its own payment if it has one (after a dismissal, attach it yourself). The same decision again answers the gap unchanged.',
    type: 'BalanceGap',
    authScopes: { project: true, merchant: true },
    args: {
      id: t.arg.id({ description: 'The balance gap UUID.', required: true }),
      paymentId: t.arg.id({ description: 'The payment the gap’s money is; left out to dismiss the gap.' }),
      note: t.arg.string({ description: 'Why, for your records (required to dismiss).' }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DESCRIPTION }),
    },
    resolve: async (query, _root, args, ctx) => {
      const body = { paymentId: args.paymentId == null ? null : String(args.paymentId), note: args.note };
      const gapId = await decided(args.idempotencyKey, 'resolveBalanceGap', String(args.id), body, (g: BalanceGap) => g.id, (idem) =>
        runOperation(ctx.deps, resolveBalanceGap, ctx.actor, { id: String(args.id), body }, { via: httpVia(ctx.actor), idem }),
      );
      return ctx.deps.prisma.balanceGap.findUniqueOrThrow({ ...query, where: { id: gapId } });
    },
  }),
}));
