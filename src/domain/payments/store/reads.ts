import { paymentColumns, toPaymentRow, type PaymentSqlRow } from './row.js';
import { statement, type Queryable } from '../../../db/statement.js';
import { paymentFilterParams, paymentFilterSql, type PaymentFilter } from '../list-filter.js';
import type { PaymentRow } from '../types.js';

const byId = statement<[string, string], PaymentSqlRow>('payment-by-id', `SELECT ${paymentColumns()} FROM payments WHERE id = $1 AND project_id = $2`, {
  prepare: true,
});

/** A payment of the project, or undefined (one indexed read). */
export async function paymentOfProject(db: Queryable, id: string, projectId: string): Promise<PaymentRow | undefined> {
  const [row] = await byId(db, id, projectId);
  return row && toPaymentRow(row);
}

const verify = statement<[string, string, string | null], PaymentSqlRow & { previously_verified: boolean; target_amount: string }>(
  'payment-verify',
  // The row lock (UPDATE) makes concurrent verifies agree on which one was first: the target CTE
  // reads verified_at as it was before this call, under the same lock. A verify naming another
  // amount ($3) updates nothing: the row comes back empty beside the amount it asked for.
  `WITH target AS (SELECT id, verified_at, amount_requested FROM payments WHERE id = $1 AND project_id = $2 FOR UPDATE),
   counted AS (
     UPDATE payments p
        SET verify_count = p.verify_count + 1,
            verified_at = CASE WHEN p.status = 'confirmed' AND p.verified_at IS NULL THEN now() ELSE p.verified_at END,
            updated_at = now()
       FROM target
      WHERE p.id = target.id AND ($3::bigint IS NULL OR target.amount_requested = $3::bigint)
     RETURNING p.*, target.verified_at IS NOT NULL AS previously_verified)
   SELECT counted.*, target.amount_requested AS target_amount FROM target LEFT JOIN counted ON true`,
);

export type Verified =
  | { payment: PaymentRow; alreadyVerified: boolean; mismatch?: undefined }
  | { payment?: undefined; mismatch: { amountRequested: bigint } };

/**
 * Counts a verify and stamps the first one that sees it confirmed; the updated row, in one statement.
 * With `amount` (rials) other than the payment's `amountRequested`, nothing is counted: the mismatch.
 */
export async function verifyOfProject(db: Queryable, id: string, projectId: string, amount: bigint | null = null): Promise<Verified | undefined> {
  const [row] = await verify(db, id, projectId, amount === null ? null : amount.toString());
  if (!row) return undefined;
  if (row.id === null) return { mismatch: { amountRequested: BigInt(row.target_amount) } };
  return { payment: toPaymentRow(row), alreadyVerified: row.previously_verified };
}

// One statement for the page and the total: the filter's absent parts are NULL parameters, so one
// text serves every combination (the project's created_at index drives it). The count sits on the
// left of a lateral join, so a page past the end still says how many match.
const FILTER = `project_id = $1 AND ${paymentFilterSql(2)}`;
const AFTER = 2 + paymentFilterParams({}).length;
const list = statement<[string, ...ReturnType<typeof paymentFilterParams>, number, number], PaymentSqlRow & { total: string }>(
  'payments-list',
  `SELECT page.*, counted.total FROM (SELECT count(*) AS total FROM payments WHERE ${FILTER}) counted
   LEFT JOIN LATERAL (SELECT * FROM payments WHERE ${FILTER} ORDER BY created_at DESC, id DESC OFFSET $${AFTER} LIMIT $${AFTER + 1}) page ON true`,
);

/** A page of the project's payments matching the filter, newest first (ties by id), and how many match. */
export async function listOfProject(db: Queryable, projectId: string, f: PaymentFilter, offset: number, limit: number): Promise<{ items: PaymentRow[]; total: number }> {
  const rows = await list(db, projectId, ...paymentFilterParams(f), offset, limit);
  const total = Number(rows[0]?.total ?? 0);
  return { items: rows.filter((r) => r.id !== null).map(toPaymentRow), total };
}
