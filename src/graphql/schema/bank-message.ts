import { visibleMessages } from '../../domain/bank-messages/decisions.js';
import { MESSAGE_STATUSES } from '../../domain/bank-messages/messages.js';
import { SIM_OUTCOMES } from '../../domain/sandbox/simulation.js';
import { readPrisma } from '../../domain/reports/read-pool.js';
import { dismissDeposit } from '../../operations/dismiss-deposit.js';
import { httpVia } from '../../operations/operation.js';
import { runOperation } from '../../operations/run.js';
import { simulateDeposit, type Simulation } from '../../operations/simulate-deposit.js';
import { builder } from '../builder.js';
import { decided, IDEMPOTENCY_KEY_DESCRIPTION } from '../idempotency.js';
import { pageWithinScope } from '../cursor-scope.js';
import { NodeRef } from './node.js';

const BankMessageStatus = builder.enumType('BankMessageStatus', {
  description: 'What the matching engine made of a bank message.',
  values: {
    received: { description: 'Stored, not processed yet.' },
    matched: { description: 'A deposit that confirmed one payment (paymentId).' },
    needs_review: { description: 'A deposit the merchant must decide on (amount without code, unknown sender, balance mismatch, ambiguous).' },
    unmatched: { description: 'A deposit that matched no payment.' },
    ignored: { description: 'Not a deposit (e.g. a withdrawal).' },
    unparsed: { description: 'No parser understood the message.' },
    duplicate: { description: 'The same deposit seen before (duplicateOfId).' },
    dismissed: { description: 'The merchant dismissed it.' },
    refunded: { description: 'A deposit that belonged to no payment, paid back by the merchant (refundBankMessage).' },
  } satisfies Record<(typeof MESSAGE_STATUSES)[number], { description: string }>,
});

builder.prismaObject('BankMessage', {
  description: 'One forwarded bank SMS (or simulated deposit), stored raw, with what the engine made of it.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The message UUID.' }),
    status: t.field({ description: 'The engine’s outcome.', type: BankMessageStatus, select: { status: true }, resolve: (m) => m.status as (typeof MESSAGE_STATUSES)[number] }),
    statusReason: t.exposeString('statusReason', { description: 'Why, in words.', nullable: true }),
    simulated: t.exposeBoolean('simulated', { description: 'True for a sandbox simulated deposit.' }),
    deviceId: t.exposeID('deviceId', { description: 'The phone that forwarded it.', nullable: true }),
    sender: t.exposeString('sender', { description: 'The SMS sender as the phone saw it.' }),
    body: t.exposeString('body', { description: 'The SMS text, unchanged.' }),
    receivedAt: t.expose('receivedAt', { description: 'When the phone received it.', type: 'DateTime' }),
    bankCode: t.exposeString('bankCode', { description: 'The bank whose parser read it.', nullable: true }),
    direction: t.exposeString('direction', { description: 'deposit or withdrawal.', nullable: true }),
    amount: t.expose('amount', { description: 'The amount moved, in rials.', type: 'Amount', nullable: true }),
    accountHint: t.exposeString('accountHint', { description: 'The card or account digits the SMS names.', nullable: true }),
    bankTime: t.expose('bankTime', { description: 'The time the bank states.', type: 'DateTime', nullable: true }),
    reference: t.exposeString('reference', { description: 'The bank’s reference number, when given.', nullable: true }),
    paymentId: t.exposeID('paymentId', { description: 'The payment it confirmed or concerns.', nullable: true }),
    cardId: t.exposeID('cardId', { description: 'The card it was matched to.', nullable: true }),
    duplicateOfId: t.exposeID('duplicateOfId', { description: 'The message this one repeats.', nullable: true }),
    decisionNote: t.exposeString('decisionNote', { description: 'The merchant’s note when dismissing.', nullable: true }),
    decidedAt: t.expose('decidedAt', { description: 'When the merchant decided.', type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { description: 'When it was stored.', type: 'DateTime' }),
  }),
});

/** What a simulation answers with: the amount, and the message and payment, read again by id. */
type SimulationShape = { simulatedAmount: string; message: { id: string }; payment: { id: string } };

const SimulationResult = builder.objectRef<SimulationShape>('SimulationResult').implement({
  description: 'What the matching engine decided about the simulated deposit.',
  fields: (t) => ({
    simulatedAmount: t.field({ description: 'The amount of the simulated deposit, in rials.', type: 'Amount', resolve: (r) => r.simulatedAmount }),
    bankMessage: t.prismaField({
      description: 'The simulated bank message and its outcome.',
      type: 'BankMessage',
      resolve: (query, r, _a, ctx) => ctx.deps.prisma.bankMessage.findUniqueOrThrow({ ...query, where: { id: r.message.id } }),
    }),
    payment: t.prismaField({
      description: 'The payment after the engine ran.',
      type: 'Payment',
      resolve: (query, r, _a, ctx) => ctx.deps.prisma.payment.findUniqueOrThrow({ ...query, where: { id: r.payment.id } }),
    }),
  }),
});

const SimulationOutcome = builder.enumType('SimulationOutcome', {
  description: 'Which deposit a sandbox simulation sends.',
  values: {
    match: { description: 'A deposit of amountFinal: confirms the payment.' },
    base_amount: { description: 'A deposit of amountRequested (code missing): needs_review.' },
    wrong_amount: { description: 'A deposit matching no held amount: unmatched, payment unchanged.' },
    custom: { description: 'A deposit of the given amount: whatever the engine decides.' },
    unit_slip: { description: 'A tenth of amountFinal (the payer sent toman): unmatched, with the payment as a unit_slip candidate.' },
    underpaid: { description: 'amountFinal − 10,000: unmatched, a near_amount candidate.' },
    overpaid: { description: 'amountFinal + 10,000: unmatched, a near_amount candidate.' },
    duplicate: { description: 'The matching deposit twice: the payment confirmed once, the second message a duplicate.' },
    unknown_sender: { description: 'A real-shaped SMS of amountFinal from a personal number: needs_review (unknown_sender), never confirmed automatically.' },
  } satisfies Record<(typeof SIM_OUTCOMES)[number], { description: string }>,
});

const SimulateDepositInput = builder.inputType('SimulateDepositInput', {
  description: 'A simulated deposit for a sandbox payment: name it by paymentId or token (or both, naming the same payment).',
  fields: (t) => ({
    paymentId: t.id({ description: 'The payment UUID.' }),
    token: t.string({ description: 'The payment token (10..64 characters).' }),
    outcome: t.field({ type: SimulationOutcome, description: 'Default match.' }),
    amount: t.field({ type: 'Amount', description: 'Required with outcome custom.' }),
    payerCardLast4: t.string({ description: 'Four digits recorded as the payer’s card.' }),
  }),
});

builder.queryField('bankMessages', (t) =>
  t.prismaConnection({
    type: 'BankMessage',
    cursor: 'id',
    authScopes: { merchant: true, project: true },
    description: 'Newest first. A project sees messages resolved to it and those from devices holding its cards; a merchant key all of its messages, or one project’s with `projectId`.',
    args: {
      projectId: t.arg.id({ description: 'Merchant key: only messages of this project (resolved to it, or from devices holding its cards).' }),
      status: t.arg({ description: 'Only messages with this outcome.', type: BankMessageStatus }),
      sandbox: t.arg.boolean({ description: 'false: real SMS only; true: simulated deposits only (the dashboard’s test side). Default both.' }),
    },
    resolve: (query, _root, args, ctx) => {
      const where = { AND: [visibleMessages(ctx.actor, args.projectId as string | null | undefined), args.status ? { status: args.status } : {}, args.sandbox == null ? {} : { simulated: args.sandbox }] };
      // A dashboard list: the read replica when there is one (may lag; src/domain/reports/read-pool.ts).
      const db = readPrisma(ctx.deps);
      // Issue 13: a cursor the caller cannot see answers an empty page (no existence oracle).
      return pageWithinScope(query, (id) => db.bankMessage.count({ where: { AND: [where, { id }] } }), () =>
        db.bankMessage.findMany({ ...query, where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
      );
    },
    totalCount: (_parent, args, ctx) =>
      readPrisma(ctx.deps).bankMessage.count({
        where: { AND: [visibleMessages(ctx.actor, args.projectId as string | null | undefined), args.status ? { status: args.status } : {}, args.sandbox == null ? {} : { simulated: args.sandbox }] },
      }),
  }, {
    // The prisma plugin's own totalCount field, described: the marker keeps its count-only shortcut.
    fields: (c) => ({
      totalCount: c.int({
        description: 'How many messages match the filters, over all pages (the dashboard’s review badge).',
        extensions: { pothosPrismaTotalCount: true },
        resolve: (connection) => (connection as { totalCount?: () => number | Promise<number> }).totalCount?.() ?? 0,
      }),
    }),
  }),
);

builder.mutationFields((t) => ({
  dismissBankMessage: t.prismaField({
    description: 'Marks a needs_review, unmatched or unparsed message as needing nothing more. A project key or the merchant key.',
    type: 'BankMessage',
    authScopes: { project: true, merchant: true },
    args: {
      id: t.arg.id({ description: 'The message UUID.', required: true }),
      note: t.arg.string({ description: 'Why, for your records.' }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DESCRIPTION }),
    },
    resolve: async (query, _root, { id, note, idempotencyKey }, ctx) => {
      const messageId = await decided(idempotencyKey, 'dismissBankMessage', String(id), { note }, (m: { id: string }) => m.id, (idem) =>
        runOperation(ctx.deps, dismissDeposit, ctx.actor, { id: String(id), body: { note } }, { via: httpVia(ctx.actor), idem }),
      );
      return ctx.deps.prisma.bankMessage.findUniqueOrThrow({ ...query, where: { id: messageId } });
    },
  }),
  simulateDeposit: t.field({
    description: 'Sandbox projects only (403 sandbox_only otherwise): feeds one simulated deposit into the matching engine and answers with its outcome.',
    type: SimulationResult,
    authScopes: { project: true },
    args: {
      input: t.arg({ description: 'The deposit to simulate.', type: SimulateDepositInput, required: true }),
      idempotencyKey: t.arg.string({ description: `${IDEMPOTENCY_KEY_DESCRIPTION} A retried simulation feeds one deposit.` }),
    },
    resolve: (_root, { input, idempotencyKey }, ctx) => {
      const data = {
        paymentId: input.paymentId ?? undefined,
        token: input.token ?? undefined,
        outcome: input.outcome ?? undefined,
        amount: input.amount ?? undefined,
        payerCardLast4: input.payerCardLast4 ?? undefined,
      };
      const shape = (r: Simulation): SimulationShape => ({ simulatedAmount: r.simulatedAmount.toString(), message: { id: r.message.id }, payment: { id: r.payment.id } });
      return decided(idempotencyKey, 'simulateDeposit', null, data, shape, (idem) =>
        runOperation(ctx.deps, simulateDeposit, ctx.actor, { body: data }, { via: httpVia(ctx.actor), idem }),
      );
    },
  }),
}));
