import { paymentStats, STATS_GROUPINGS, type PaymentStatsPeriod } from '../../domain/reports/payment-stats.js';
import { builder } from '../builder.js';

const StatsPeriodKind = builder.enumType('StatsPeriodKind', {
  description: 'How paymentStats groups payments: by Jalali day or Jalali month, Tehran time.',
  values: {
    DAY: { description: 'One period per Jalali day: `1405-09-04`.' },
    MONTH: { description: 'One period per Jalali month: `1405-09`.' },
  } satisfies Record<(typeof STATS_GROUPINGS)[number], { description: string }>,
});

const PaymentStatsPeriodRef = builder.objectRef<PaymentStatsPeriod>('PaymentStatsPeriod').implement({
  description: 'Payments created in one Jalali day or month (Tehran time). Amounts are rials.',
  fields: (t) => ({
    period: t.exposeString('period', { description: 'The Jalali day (`1405-09-04`) or month (`1405-09`).' }),
    confirmedCount: t.exposeInt('confirmedCount', { description: 'Payments now confirmed.' }),
    confirmedAmount: t.field({ description: 'What the confirmed payments received.', type: 'Amount', resolve: (p) => p.confirmedAmount }),
    pendingCount: t.exposeInt('pendingCount', { description: 'Payments still pending (those waiting for review included).' }),
    expiredCount: t.exposeInt('expiredCount', { description: 'Payments that expired unpaid.' }),
    canceledCount: t.exposeInt('canceledCount', { description: 'Payments the payer canceled.' }),
    rejectedCount: t.exposeInt('rejectedCount', { description: 'Payments the merchant rejected.' }),
    reviewCount: t.exposeInt('reviewCount', { description: 'Payments waiting for the merchant’s decision (reviewRequired).' }),
    refundedAmount: t.field({ description: 'What was refunded of these payments.', type: 'Amount', resolve: (p) => p.refundedAmount }),
    fees: t.field({ description: 'The fees charged for these payments (live projects; sandbox costs nothing).', type: 'Amount', resolve: (p) => p.fees }),
  }),
});

builder.queryField('paymentStats', (t) =>
  t.field({
    type: [PaymentStatsPeriodRef],
    authScopes: { project: true, merchant: true },
    description:
      'Payment figures per Jalali day or month (Tehran time) of the range, oldest first, every period of the range present (empty ones with zeros). A project key counts its project; a merchant key all its projects, or one with `projectId` (a project it cannot see counts nothing). The range covers at most 366 days.',
    args: {
      projectId: t.arg.id({ description: 'Merchant key: only this project. A project key: its own project (any other id counts nothing).' }),
      from: t.arg.string({ description: 'Start, inclusive: an RFC 3339 date-time, or a Jalali date (`1405-09-01`, from the start of that Tehran day). Default: 30 days before `to`.' }),
      to: t.arg.string({ description: 'End, inclusive: an RFC 3339 date-time, or a Jalali date (`1405-09-30`, to the end of that Tehran day). Default: now.' }),
      groupBy: t.arg({ description: 'DAY (default) or MONTH.', type: StatsPeriodKind }),
    },
    resolve: (_root, args, ctx) =>
      paymentStats(ctx.deps, ctx.actor, {
        projectId: args.projectId == null ? null : String(args.projectId),
        ...(args.from != null ? { from: args.from } : {}),
        ...(args.to != null ? { to: args.to } : {}),
        ...(args.groupBy != null ? { groupBy: args.groupBy } : {}),
      }),
  }),
);
