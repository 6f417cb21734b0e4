import { paymentStats, STATS_GROUPINGS, STATS_PRESETS, type PaymentStatsPeriod } from '../../domain/reports/payment-stats.js';
import { reviewQueueCounts, type ReviewQueueCounts } from '../../domain/reports/review-queue.js';
import { builder } from '../builder.js';

const StatsPeriodKind = builder.enumType('StatsPeriodKind', {
  description: 'How paymentStats groups payments: by Jalali day or Jalali month, Tehran time.',
  values: {
    DAY: { description: 'One period per Jalali day: `1405-09-04`.' },
    MONTH: { description: 'One period per Jalali month: `1405-09`.' },
    TOTAL: { description: 'The whole range as one period, named by its first and last Jalali days: `1405-09-01_1405-09-30`.' },
  } satisfies Record<(typeof STATS_GROUPINGS)[number], { description: string }>,
});

const StatsRange = builder.enumType('StatsRange', {
  description: 'A range named by the day it is asked on (Tehran time), in place of `from`/`to`.',
  values: {
    TODAY: { description: 'Today, the whole Tehran day.' },
    THIS_MONTH: { description: 'This Jalali month, its first day to its last (days to come count zero).' },
  } satisfies Record<(typeof STATS_PRESETS)[number], { description: string }>,
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
    netAmount: t.field({ description: 'confirmedAmount − refundedAmount: what stayed with the merchant (the overview’s total).', type: 'Amount', resolve: (p) => p.netAmount }),
    fees: t.field({ description: 'The fees charged for these payments (live projects; sandbox costs nothing).', type: 'Amount', resolve: (p) => p.fees }),
  }),
});

builder.queryField('paymentStats', (t) =>
  t.field({
    type: [PaymentStatsPeriodRef],
    authScopes: { project: true, merchant: true },
    description:
      'Payment figures per Jalali day or month (Tehran time) of the range, oldest first, every period of the range present (empty ones with zeros), or the whole range as one (TOTAL). A project key counts its project; a merchant key all its projects, or one with `projectId` (a project it cannot see counts nothing). Live and sandbox payments never mix: `sandbox` picks which (default: the project’s own mode when one is named, else live). The range covers at most 366 days. `reviewCount` counts payments created in each period; the number waiting now is `reviewQueue`.',
    args: {
      projectId: t.arg.id({ description: 'Merchant key: only this project. A project key: its own project (any other id counts nothing).' }),
      from: t.arg.string({ description: 'Start, inclusive: an RFC 3339 date-time, or a Jalali date (`1405-09-01`, from the start of that Tehran day). Default: 30 days before `to`.' }),
      to: t.arg.string({ description: 'End, inclusive: an RFC 3339 date-time, or a Jalali date (`1405-09-30`, to the end of that Tehran day). Default: now.' }),
      range: t.arg({ description: 'TODAY or THIS_MONTH in place of from/to (both given: invalid_request).', type: StatsRange }),
      sandbox: t.arg.boolean({ description: 'false: live payments only; true: sandbox only. Default: the named project’s mode, else live.' }),
      groupBy: t.arg({ description: 'DAY (default), MONTH or TOTAL.', type: StatsPeriodKind }),
    },
    resolve: (_root, args, ctx) =>
      paymentStats(ctx.deps, ctx.actor, {
        projectId: args.projectId == null ? null : String(args.projectId),
        ...(args.from != null ? { from: args.from } : {}),
        ...(args.to != null ? { to: args.to } : {}),
        ...(args.range != null ? { range: args.range } : {}),
        ...(args.sandbox != null ? { sandbox: args.sandbox } : {}),
        ...(args.groupBy != null ? { groupBy: args.groupBy } : {}),
      }),
  }),
);

const ReviewQueueRef = builder.objectRef<ReviewQueueCounts>('ReviewQueue').implement({
  description: 'What waits for the merchant’s decision now, of one side (live or sandbox). The one source of the review badge and the overview’s “needing review”.',
  fields: (t) => ({
    deposits: t.exposeInt('deposits', { description: 'Deposits held for review or matching no payment (bankMessages with status needs_review or unmatched).' }),
    payments: t.exposeInt('payments', { description: 'Payments flagged for review (payments with reviewRequired: true).' }),
    total: t.exposeInt('total', { description: 'deposits + payments: the number the badge shows.' }),
  }),
});

builder.queryField('reviewQueue', (t) =>
  t.field({
    type: ReviewQueueRef,
    authScopes: { project: true, merchant: true },
    description: 'How many deposits and payments wait for a decision now, live or sandbox (never both), all the caller’s projects or one.',
    args: {
      projectId: t.arg.id({ description: 'Merchant key: only this project. A project key: its own project.' }),
      sandbox: t.arg.boolean({ description: 'false (default): live; true: sandbox.' }),
    },
    resolve: (_root, args, ctx) =>
      reviewQueueCounts(ctx.deps, ctx.actor, { projectId: args.projectId == null ? null : String(args.projectId), sandbox: args.sandbox ?? false }),
  }),
);
