import { z } from 'zod';
import { callerScope } from '../auth/scope.js';
import type { Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { parseInput } from '../validation.js';
import { jalaliOfWall, nextJalaliDay, tehranDayStart, tehranWall } from '../calendar/tehran-calendar.js';
import { rangeFields, rangeLabel, resolveRange, type DateRange } from './date-range.js';
import { readPool } from './read-pool.js';
import { paymentStatsOf } from './store/payment-stats.js';

export const STATS_GROUPINGS = ['DAY', 'MONTH', 'TOTAL'] as const;
/** Ranges named by the day they are asked on (Tehran): today so far, this Jalali month so far. */
export const STATS_PRESETS = ['TODAY', 'THIS_MONTH'] as const;
export type StatsPreset = (typeof STATS_PRESETS)[number];

/** The range a preset names at `now`: from the start of the Tehran day (or Jalali month) to its end. */
export function presetRange(preset: StatsPreset, now = new Date()): DateRange {
  const today = jalaliOfWall(tehranWall(now));
  const first = preset === 'TODAY' ? today : { ...today, jd: 1 };
  let end = nextJalaliDay(today);
  if (preset === 'THIS_MONTH') while (end.jm === today.jm) end = nextJalaliDay(end);
  return { from: tehranDayStart(first), to: new Date(tehranDayStart(end).getTime() - 1) };
}

const statsInput = z
  .object({
    projectId: z.string().nullish(),
    ...rangeFields,
    range: z.enum(STATS_PRESETS, { message: `must be one of ${STATS_PRESETS.join(', ')}` }).nullish(),
    sandbox: z.boolean({ message: 'must be true or false' }).nullish(),
    groupBy: z.enum(STATS_GROUPINGS, { message: `must be one of ${STATS_GROUPINGS.join(', ')}` }).default('DAY'),
  })
  .strict()
  .transform((value, ctx) => {
    const { from, to, range: preset, ...rest } = value;
    if (preset && (from || to)) {
      ctx.addIssue({ code: 'custom', path: ['range'], message: 'give either range or from/to, not both' });
      return z.NEVER;
    }
    const range = preset ? presetRange(preset) : resolveRange({ from, to });
    if ('field' in range) {
      ctx.addIssue({ code: 'custom', path: [range.field], message: range.message });
      return z.NEVER;
    }
    return { ...rest, range };
  });

/**
 * One period of paymentStats (schema.graphql `paymentStats`; docs/dashboard.md "The overview").
 * Payments count in the Jalali day or month (Tehran) they were created in; amounts are rials:
 * `confirmedAmount` what confirmed payments received, `refundedAmount` what was refunded of them,
 * `fees` the fees charged (debited) for them; `reviewCount` the payments still waiting for the
 * merchant's decision.
 */
export type PaymentStatsPeriod = {
  period: string;
  confirmedCount: number;
  confirmedAmount: bigint;
  pendingCount: number;
  expiredCount: number;
  canceledCount: number;
  rejectedCount: number;
  reviewCount: number;
  refundedAmount: bigint;
  /** confirmedAmount − refundedAmount: what stayed with the merchant. */
  netAmount: bigint;
  fees: bigint;
};

/**
 * Every Jalali day (`1405-09-04`) or month (`1405-09`) of the range, oldest first, empty ones too,
 * or the whole range as one period (TOTAL, named `1405-09-01_1405-09-30`). A project key counts its
 * project; a merchant credential all of its projects, or one (`projectId`); a project the caller
 * cannot see counts nothing. Live and sandbox never mix: `sandbox` picks one (default: the named
 * project's own mode, else live).
 */
export async function paymentStats(deps: Deps, actor: Actor, input: unknown): Promise<PaymentStatsPeriod[]> {
  const q = parseInput(statsInput, input);
  const scope = callerScope(actor, q.projectId);
  // One project is of one mode; merchant-wide, the mode is live unless sandbox is asked for.
  const sandbox = q.sandbox ?? (scope.projectId ? null : false);
  const rows = await paymentStatsOf(readPool(deps), scope, sandbox, q.range.from, q.range.to, q.groupBy, rangeLabel(q.range));
  return rows.map((r) => ({
    period: r.period,
    confirmedCount: r.confirmed_count,
    confirmedAmount: BigInt(r.confirmed_amount),
    pendingCount: r.pending_count,
    expiredCount: r.expired_count,
    canceledCount: r.canceled_count,
    rejectedCount: r.rejected_count,
    reviewCount: r.review_count,
    refundedAmount: BigInt(r.refunded_amount),
    netAmount: BigInt(r.confirmed_amount) - BigInt(r.refunded_amount),
    fees: BigInt(r.fees),
  }));
}
