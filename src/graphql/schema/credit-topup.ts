import { createCreditTopUp, creditTopUpAvailable, listCreditTopUps, type CreditTopUpView, type TopUpPayment } from '../../domain/credit/topups.js';
import { builder } from '../builder.js';
import { Currency } from './payment.js';

// Fee credit bought through the gateway (docs/live-setup.md "2. Fee credit"; src/domain/credit/topups.ts).

const TopUpPaymentRef = builder.objectRef<TopUpPayment>('CreditTopUpPayment').implement({
  description: 'The payment a top-up is paid by: on the operator’s top-up project, the merchant being its payer.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The payment UUID.' }),
    checkoutUrl: t.exposeString('checkoutUrl', { description: 'The checkout page to pay it on: the card and the exact amount to transfer.' }),
    amountFinal: t.expose('amountFinal', { type: 'Amount', description: 'The exact amount to transfer, in rials (amountRequested + its code).' }),
    amountRequested: t.expose('amountRequested', { type: 'Amount', description: 'The credit it buys, in rials.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When the payment expires unpaid.' }),
    status: t.exposeString('status', { description: 'pending, confirmed, expired, rejected or canceled.' }),
  }),
});

const CreditTopUpRef = builder.objectRef<CreditTopUpView>('CreditTopUp').implement({
  description: 'A purchase of fee credit: once its payment is confirmed, the merchant’s credit rises by `amount`, once (a ledger entry `topup`).',
  fields: (t) => ({
    payment: t.field({ type: TopUpPaymentRef, description: 'The payment to pay.', resolve: (v) => v.payment }),
    amount: t.expose('amount', { type: 'Amount', description: 'The credit it buys, in rials.' }),
    credited: t.exposeBoolean('credited', { description: 'True once the credit was added.' }),
    creditedAt: t.expose('creditedAt', { type: 'DateTime', nullable: true, description: 'When the credit was added.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was asked for.' }),
  }),
});

builder.queryFields((t) => ({
  creditTopUpAvailable: t.boolean({
    authScopes: { merchant: true },
    description: 'True when this merchant can buy fee credit with createCreditTopUp; false when the operator has named no top-up project (the dashboard then says to ask the operator).',
    resolve: (_root, _args, ctx) => creditTopUpAvailable(ctx.deps, ctx.actor),
  }),
  creditTopUps: t.field({
    type: [CreditTopUpRef],
    authScopes: { merchant: true },
    description: 'The merchant’s top-ups, newest first (at most 50).',
    resolve: (_root, _args, ctx) => listCreditTopUps(ctx.deps, ctx.actor),
  }),
}));

builder.mutationField('createCreditTopUp', (t) =>
  t.field({
    type: CreditTopUpRef,
    authScopes: { merchant: true },
    description:
      'Buys fee credit: a payment of `amount` on the operator’s top-up project, to pay on its checkout page. When it is confirmed the merchant’s credit rises by `amount` (its amountRequested), once, with a ledger entry `topup` and an audit event (merchant.credit_topped_up). The merchant key or an owner. No top-up project: invalid_state with details.reason `topup_unavailable` (ask the operator).',
    args: {
      amount: t.arg({ type: 'Amount', required: true, description: 'The credit to buy, in `currency`: 10,000..1,000,000,000 rials once converted.' }),
      currency: t.arg({ type: Currency, description: 'IRR (default) or IRT (toman, × 10).' }),
    },
    resolve: (_root, args, ctx) => createCreditTopUp(ctx.deps, ctx.actor, { amount: args.amount, ...(args.currency ? { currency: args.currency } : {}) }),
  }),
);
