import { toPaymentRow, type PaymentSqlRow } from './row.js';
import { statement, type Queryable } from '../../../db/statement.js';
import { codeDraws } from '../../codes/codes.js';
import type { Currency } from '../../banking/currency.js';
import type { PaymentRow } from '../types.js';
import { timeOrderedId } from '../../../db/ids.js';

export type CreateArgs = {
  paymentId: string;
  projectId: string;
  linkId: string | null;
  /** Rials. */
  amount: bigint;
  /** The unit the caller sent amounts in, kept with the payment. */
  currency: Currency;
  callbackUrl: string | null;
  /** Checked against the project's allowed hosts inside the call; null when the caller checked. */
  callbackHost: string | null;
  orderId: string | null;
  description: string | null;
  payerPhone: string | null;
  metadata: unknown;
  token: string;
  /** DEVICE_OFFLINE_SECONDS in milliseconds (`deviceOnlineMs`), for the SQL `device_online`. */
  onlineMs: number;
};

type CreateParams = [string, string, string | null, string, string, string | null, string | null, string | null, string | null, string | null, string | null, string, number, string[]];

const create = statement<CreateParams, PaymentSqlRow>(
  'create-payment',
  'SELECT * FROM create_payment($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::json, $12, $13, $14)',
);

/**
 * One call to the `create_payment` SQL function (src/domain/payments/sql/create_payment.sql, whose
 * header lists the rules it owns): the allocation, hold, payment, fee reservation and card stamp
 * in one statement (its expiry is the sweep's, from `expires_at`: jobs/expire-due.ts). On the pool it is its own transaction; on a client inside BEGIN it
 * joins that one (idempotent creates).
 */
export async function createPaymentRow(db: Queryable, a: CreateArgs): Promise<PaymentRow> {
  const [row] = await create(
    db,
    a.paymentId,
    a.projectId,
    a.linkId,
    a.amount.toString(),
    a.currency,
    a.callbackUrl,
    a.callbackHost,
    a.orderId,
    a.description,
    a.payerPhone,
    a.metadata === null || a.metadata === undefined ? null : JSON.stringify(a.metadata),
    a.token,
    a.onlineMs,
    codeDraws(),
  );
  return toPaymentRow(row!);
}

/**
 * A new payment's id: time-ordered (UUID version 7), as every growing table's ids are, so its
 * entries land on the right edge of the payments' primary key and of the rows keyed by it
 * (migration time_ordered_ids; docs/decisions.md "Time-ordered ids for the growing tables").
 */
export const newPaymentId = (): string => timeOrderedId();
