import { statement, type Queryable } from '../../../db/statement.js';
import type { Deps } from '../../deps.js';

/**
 * What counts against a card's caps now (docs/dashboard.md "Cards": caps
 * used today and this month). The rule is the create function's (payment_claim_code in
 * src/domain/payments/sql/create_payment.sql), read here and decided there: the card's pending and
 * confirmed payments, their amountFinal, created since midnight Tehran time for the day's caps and
 * since `jalali_month_start(now())` (src/domain/cards/sql/jalali_month.sql) for the month's. So a
 * card whose `today.count` equals its daily count cap is refused its next payment, and one whose
 * `today.amount` plus a new payment's amountFinal passes its daily amount cap is refused that one.
 */
export type CapUsage = { amount: string; count: number; since: Date };
export type CardUsage = { today: CapUsage; thisMonth: CapUsage };

type UsageRow = {
  card_id: string;
  day_start: Date;
  day_amount: string;
  day_count: number;
  month_start: Date;
  month_amount: string;
  month_count: number;
};

// One statement for a list of cards: each card's payments since the month's start (never after the
// day's: a Jalali month starts at a Tehran midnight) over payments_card_created_idx, the day's
// counted with a FILTER, as the create function reads them. A card with none answers zeros.
export const CARD_USAGE_SQL = `WITH bounds AS (
     SELECT date_trunc('day', now() AT TIME ZONE 'Asia/Tehran') AT TIME ZONE 'Asia/Tehran' AS day_start,
            jalali_month_start(now()) AS month_start)
   SELECT c.id AS card_id, b.day_start, b.month_start,
          coalesce(sum(p.amount_final) FILTER (WHERE p.created_at >= b.day_start), 0)::text AS day_amount,
          (count(p.id) FILTER (WHERE p.created_at >= b.day_start))::int AS day_count,
          coalesce(sum(p.amount_final), 0)::text AS month_amount,
          count(p.id)::int AS month_count
     FROM unnest($1::uuid[]) AS c(id)
    CROSS JOIN bounds b
     LEFT JOIN payments p ON p.card_id = c.id AND p.status IN ('pending', 'confirmed') AND p.created_at >= b.month_start
    GROUP BY c.id, b.day_start, b.month_start`;

const usageOf = statement<[cardIds: string[]], UsageRow>('card-usage', CARD_USAGE_SQL);

/** The usage of each card named, by id (ids that name no card answer zeros). */
export async function cardUsages(db: Queryable, cardIds: readonly string[]): Promise<Map<string, CardUsage>> {
  const ids = [...new Set(cardIds)];
  if (ids.length === 0) return new Map();
  const rows = await usageOf(db, ids);
  return new Map(
    rows.map((r) => [
      r.card_id,
      {
        today: { amount: r.day_amount, count: r.day_count, since: r.day_start },
        thisMonth: { amount: r.month_amount, count: r.month_count, since: r.month_start },
      },
    ]),
  );
}

type Batch = { ids: Set<string>; usages: Promise<Map<string, CardUsage>> };
const batches = new WeakMap<Pick<Deps, 'pool'>, Batch>();

/**
 * One card's usage. The cards asked for in one tick (a GraphQL page of cards, both of each card's
 * figures) are read in one statement, on the primary: a merchant reads right after creating.
 */
export function cardUsage(deps: Pick<Deps, 'pool'>, cardId: string): Promise<CardUsage> {
  let batch = batches.get(deps);
  if (!batch) {
    const ids = new Set<string>();
    const usages = new Promise<Map<string, CardUsage>>((resolve, reject) => {
      process.nextTick(() => {
        batches.delete(deps);
        cardUsages(deps.pool, [...ids]).then(resolve, reject);
      });
    });
    batch = { ids, usages };
    batches.set(deps, batch);
  }
  batch.ids.add(cardId);
  return batch.usages.then((usages) => {
    const usage = usages.get(cardId);
    if (!usage) throw new Error(`no usage row for card ${cardId}`);
    return usage;
  });
}
