import { statement, type Queryable } from '../../../db/statement.js';
import type { ViewSource } from '../../checkout/view.js';

// The payment's columns the view shows (ViewPayment), then its project's, card's and link's.
type CheckoutSqlRow = {
  id: string;
  token: string;
  status: string;
  amount_requested: string;
  amount_final: string;
  amount_mode: string;
  currency: string;
  description: string | null;
  order_id: string | null;
  expires_at: Date;
  late_until: Date;
  callback_url: string | null;
  payer_reported_paid_at: Date | null;
  confirmed_at: Date | null;
  receipt_code: string | null;
  sandbox: boolean;
  pr_auto_confirm: boolean;
  pr_name: string;
  pr_display_name: string | null;
  pr_logo_url: string | null;
  pr_color: string | null;
  pr_note: string | null;
  pr_support_phone: string | null;
  c_bank_code: string;
  c_card_number: string;
  c_holder_name: string;
  l_slug: string | null;
  l_title: string | null;
};

const byToken = statement<[string], CheckoutSqlRow>(
  'checkout-view-by-token',
  `SELECT p.id, p.token, p.status, p.amount_requested, p.amount_final, p.amount_mode, p.currency, p.description, p.order_id,
          p.expires_at, p.late_until, p.callback_url, p.payer_reported_paid_at, p.confirmed_at, p.receipt_code, p.sandbox,
          pr.auto_confirm AS pr_auto_confirm, pr.name AS pr_name, pr.display_name AS pr_display_name, pr.logo_url AS pr_logo_url,
          pr.color AS pr_color, pr.note AS pr_note, pr.support_phone AS pr_support_phone,
          c.bank_code AS c_bank_code, c.card_number AS c_card_number, c.holder_name AS c_holder_name,
          l.slug AS l_slug, l.title AS l_title
     FROM payments p
     JOIN projects pr ON pr.id = p.project_id
     JOIN cards c ON c.id = p.card_id
     LEFT JOIN payment_links l ON l.id = p.link_id
    WHERE p.token = $1`,
  { prepare: true },
);

/** What the payer's checkout view is built from, by the payment's token, in one statement. */
export async function checkoutSourceByToken(db: Queryable, token: string): Promise<ViewSource | undefined> {
  const [row] = await byToken(db, token);
  if (!row) return undefined;
  return {
    id: row.id,
    token: row.token,
    status: row.status,
    amountRequested: BigInt(row.amount_requested),
    amountFinal: BigInt(row.amount_final),
    amountMode: row.amount_mode,
    currency: row.currency,
    description: row.description,
    orderId: row.order_id,
    expiresAt: row.expires_at,
    lateUntil: row.late_until,
    callbackUrl: row.callback_url,
    payerReportedPaidAt: row.payer_reported_paid_at,
    confirmedAt: row.confirmed_at,
    receiptCode: row.receipt_code,
    sandbox: row.sandbox,
    project: {
      autoConfirm: row.pr_auto_confirm,
      name: row.pr_name,
      displayName: row.pr_display_name,
      logoUrl: row.pr_logo_url,
      color: row.pr_color,
      note: row.pr_note,
      supportPhone: row.pr_support_phone,
    },
    card: { bankCode: row.c_bank_code, cardNumber: row.c_card_number, holderName: row.c_holder_name },
    link: row.l_slug === null || row.l_title === null ? null : { slug: row.l_slug, title: row.l_title },
  };
}
