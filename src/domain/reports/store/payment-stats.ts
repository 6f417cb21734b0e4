import { statement, type Queryable } from '../../../db/statement.js';
import { scopeSql } from '../../auth/scope.js';

export type PeriodRow = {
  period: string;
  confirmed_count: number;
  confirmed_amount: string;
  pending_count: number;
  expired_count: number;
  canceled_count: number;
  rejected_count: number;
  review_count: number;
  refunded_amount: string;
  fees: string;
};

// One aggregate: payments are summed per Tehran day over payments_merchant_created_idx (an
// index-only scan over the range: every column read is in the index), then every Jalali day of
// the range gets its row (empty days too) and is named by jalali_date(); months add up their days.
// $2 (one project) and $3 (a scope holding nothing) are constants of the one-off plan; $7 is the
// mode (live false, sandbox true; NULL only for one project, which is of one mode); with TOTAL the
// whole range is one period named $8.
export const PAYMENT_STATS_SQL = `WITH days AS (
     SELECT (created_at AT TIME ZONE 'Asia/Tehran')::date AS day,
            count(*) FILTER (WHERE status = 'confirmed') AS confirmed_count,
            sum(amount_received) FILTER (WHERE status = 'confirmed') AS confirmed_amount,
            count(*) FILTER (WHERE status = 'pending') AS pending_count,
            count(*) FILTER (WHERE status = 'expired') AS expired_count,
            count(*) FILTER (WHERE status = 'canceled') AS canceled_count,
            count(*) FILTER (WHERE status = 'rejected') AS rejected_count,
            count(*) FILTER (WHERE review_required) AS review_count,
            sum(refunded_amount) AS refunded_amount,
            sum(fee_amount) FILTER (WHERE fee_state = 'debited') AS fees
       FROM payments
      WHERE ${scopeSql(null)} AND NOT $3::boolean
        AND ($7::boolean IS NULL OR sandbox = $7::boolean)
        AND created_at >= $4::timestamptz AND created_at <= $5::timestamptz
      GROUP BY 1),
   calendar AS (
     SELECT d::date AS day, jalali_date(d AT TIME ZONE 'Asia/Tehran') AS jalali_day
       FROM generate_series(($4::timestamptz AT TIME ZONE 'Asia/Tehran')::date::timestamp,
                            ($5::timestamptz AT TIME ZONE 'Asia/Tehran')::date::timestamp, interval '1 day') d)
   SELECT CASE $6::text WHEN 'MONTH' THEN left(c.jalali_day, 7) WHEN 'TOTAL' THEN $8::text ELSE c.jalali_day END AS period,
          coalesce(sum(d.confirmed_count), 0)::int AS confirmed_count,
          coalesce(sum(d.confirmed_amount), 0)::text AS confirmed_amount,
          coalesce(sum(d.pending_count), 0)::int AS pending_count,
          coalesce(sum(d.expired_count), 0)::int AS expired_count,
          coalesce(sum(d.canceled_count), 0)::int AS canceled_count,
          coalesce(sum(d.rejected_count), 0)::int AS rejected_count,
          coalesce(sum(d.review_count), 0)::int AS review_count,
          coalesce(sum(d.refunded_amount), 0)::text AS refunded_amount,
          coalesce(sum(d.fees), 0)::text AS fees
     FROM calendar c LEFT JOIN days d ON d.day = c.day
    GROUP BY 1
    ORDER BY 1`;

export type StatsGrouping = 'DAY' | 'MONTH' | 'TOTAL';

const stats = statement<[merchantId: string, projectId: string | null, none: boolean, from: Date, to: Date, groupBy: StatsGrouping, sandbox: boolean | null, label: string], PeriodRow>(
  'payment-stats',
  PAYMENT_STATS_SQL,
);

export function paymentStatsOf(
  db: Queryable,
  scope: { merchantId: string; projectId: string | null; none: boolean },
  sandbox: boolean | null,
  from: Date,
  to: Date,
  groupBy: StatsGrouping,
  label: string,
): Promise<PeriodRow[]> {
  return stats(db, scope.merchantId, scope.projectId, scope.none, from, to, groupBy, sandbox, label);
}
