import { scopeSql } from '../../auth/scope.js';
import type { ColumnSpec } from '../columns.js';

/**
 * The three exports' statements, read through a server-side cursor in (created_at, id) order.
 * Parameters, the same for all: $1 merchant, $2 one project or NULL, $3 the scope holds nothing,
 * $4..$5 the inclusive range, $6 the status (ledger: kind) or NULL, $7 the mode (false live, true
 * sandbox; the ledger is live only) or NULL for both. Every statement also gives `mode` (live |
 * test), which the Persian export shows (columns.ts `withMode`). Each is sent unnamed and
 * planned once with its values, so $2 and $3 fold away: a project's export walks the project's
 * created_at index, a merchant's payments walk payments_merchant_created_idx (`scopeSql`: a
 * project's rows are never also asked for by merchant, which would pair the two indexes).
 */
export type ExportQuery = { text: string; columns: ColumnSpec };

export const paymentsExport: ExportQuery = {
  text: `SELECT p.id, p.order_id AS "orderId", p.status, p.currency,
                p.amount_requested::text AS "amountRequested", p.amount_final::text AS "amountFinal",
                p.amount_received::text AS "amountReceived", p.refunded_amount::text AS "refundedAmount",
                (CASE WHEN p.fee_state = 'debited' THEN p.fee_amount ELSE 0 END)::text AS fee,
                p.code, right(c.card_number, 4) AS "cardLast4", p.payer_card_last4 AS "payerCardLast4",
                p.payer_phone AS "payerPhone", p.confirmation_source AS "confirmationSource",
                p.confirmed_late AS "confirmedLate", p.receipt_code AS "receiptCode",
                p.created_at AS "createdAt", p.confirmed_at AS "confirmedAt",
                CASE WHEN p.sandbox THEN 'test' ELSE 'live' END AS mode
           FROM payments p JOIN cards c ON c.id = p.card_id
          WHERE ${scopeSql('p')} AND NOT $3::boolean
            AND p.created_at >= $4::timestamptz AND p.created_at <= $5::timestamptz
            AND ($6::text IS NULL OR p.status = $6::text)
            AND ($7::boolean IS NULL OR p.sandbox = $7::boolean)
          ORDER BY p.created_at, p.id`,
  columns: [
    ['id', 'code'],
    ['orderId', 'text'],
    ['status', 'code'],
    ['currency', 'code'],
    ['amountRequested', 'amount'],
    ['amountFinal', 'amount'],
    ['amountReceived', 'amount'],
    ['refundedAmount', 'amount'],
    ['fee', 'amount'],
    ['code', 'integer'],
    ['cardLast4', 'code'],
    ['payerCardLast4', 'text'],
    ['payerPhone', 'text'],
    ['confirmationSource', 'code'],
    ['confirmedLate', 'boolean'],
    ['receiptCode', 'code'],
    ['createdAt', 'instant'],
    ['confirmedAt', 'instant'],
  ],
};

export const bankMessagesExport: ExportQuery = {
  text: `SELECT m.id, m.status, m.review_reason AS "reviewReason", m.status_reason AS "statusReason",
                m.sender, m.bank_code AS "bankCode", m.direction, m.amount::text AS amount, m.reference,
                right(c.card_number, 4) AS "cardLast4", m.payment_id AS "paymentId", m.simulated, m.body,
                m.bank_time AS "bankTime", m.received_at AS "receivedAt", m.created_at AS "createdAt",
                CASE WHEN m.simulated THEN 'test' ELSE 'live' END AS mode
           FROM bank_messages m LEFT JOIN cards c ON c.id = m.card_id
          WHERE ${scopeSql('m')} AND NOT $3::boolean
            AND m.created_at >= $4::timestamptz AND m.created_at <= $5::timestamptz
            AND ($6::text IS NULL OR m.status = $6::text)
            AND ($7::boolean IS NULL OR m.simulated = $7::boolean)
          ORDER BY m.created_at, m.id`,
  columns: [
    ['id', 'code'],
    ['status', 'code'],
    ['reviewReason', 'code'],
    ['statusReason', 'code'],
    ['sender', 'text'],
    ['bankCode', 'code'],
    ['direction', 'code'],
    ['amount', 'amount'],
    ['reference', 'text'],
    ['cardLast4', 'code'],
    ['paymentId', 'code'],
    ['simulated', 'boolean'],
    ['body', 'text'],
    ['bankTime', 'instant'],
    ['receivedAt', 'instant'],
    ['createdAt', 'instant'],
  ],
};

// The ledger is the merchant's: a project's export holds the entries of that project's payments.
export const ledgerExport: ExportQuery = {
  text: `SELECT l.id, l.kind, l.amount::text AS amount, l.balance_after::text AS "balanceAfter",
                l.payment_id AS "paymentId", l.note, l.created_at AS "createdAt", 'live' AS mode
           FROM credit_ledger_entries l
          WHERE l.merchant_id = $1 AND NOT $3::boolean
            AND ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM payments p WHERE p.id = l.payment_id AND p.project_id = $2::uuid))
            AND l.created_at >= $4::timestamptz AND l.created_at <= $5::timestamptz
            AND ($6::text IS NULL OR l.kind = $6::text)
            AND ($7::boolean IS NULL OR NOT $7::boolean)
          ORDER BY l.created_at, l.id`,
  columns: [
    ['id', 'code'],
    ['kind', 'code'],
    ['amount', 'amount'],
    ['balanceAfter', 'amount'],
    ['paymentId', 'code'],
    ['note', 'text'],
    ['createdAt', 'instant'],
  ],
};
