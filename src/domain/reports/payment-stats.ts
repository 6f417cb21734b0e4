import { z } from 'zod';
import { callerScope } from '../auth/scope.js';
import type { Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { parseInput } from '../validation.js';
import { rangeFields, withRange } from './date-range.js';
import { readPool } from './read-pool.js';
import { paymentStatsOf } from './store/payment-stats.js';

export const STATS_GROUPINGS = ['DAY', 'MONTH'] as const;

const statsInput = z
  .object({
    projectId: z.string().nullish(),
    ...rangeFields,
    groupBy: z.enum(STATS_GROUPINGS, { message: `must be one of ${STATS_GROUPINGS.join(', ')}` }).default('DAY'),
  })
  .strict()
  .transform(withRange);

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
  fees: bigint;
};

/**
 * Every Jalali day (`1405-09-04`) or month (`1405-09`) of the range, oldest first, empty ones too.
 * A project key counts its project; a merchant credential all of its projects, or one
 * (`projectId`); a project the caller cannot see counts nothing.
 */
export async function paymentStats(deps: Deps, actor: Actor, input: unknown): Promise<PaymentStatsPeriod[]> {
  const q = parseInput(statsInput, input);
  const scope = callerScope(actor, q.projectId);
  const rows = await paymentStatsOf(readPool(deps), scope, q.range.from, q.range.to, q.groupBy);
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
    fees: BigInt(r.fees),
  }));
}
