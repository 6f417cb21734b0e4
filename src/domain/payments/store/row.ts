import type { PaymentRow } from '../types.js';

/** A `payments` row as node-postgres returns it (bigint as text, timestamps as Date, json parsed). */
export type PaymentSqlRow = {
  id: string;
  project_id: string;
  merchant_id: string;
  card_id: string;
  link_id: string | null;
  link_client_address: string | null;
  status: string;
  amount_requested: string;
  code: number;
  amount_final: string;
  amount_mode: string;
  currency: string;
  order_id: string | null;
  description: string | null;
  callback_url: string | null;
  token: string;
  review_required: boolean;
  review_reason: string | null;
  confirmation_source: string | null;
  confirmed_at: Date | null;
  confirmed_by_message_id: string | null;
  manual_note: string | null;
  amount_received: string | null;
  confirmed_late: boolean;
  refunded_amount: string;
  verified_at: Date | null;
  verify_count: number;
  expires_at: Date;
  late_until: Date;
  expired_at: Date | null;
  canceled_at: Date | null;
  rejected_at: Date | null;
  reject_reason: string | null;
  payer_phone: string | null;
  payer_card_last4: string | null;
  payer_tracking_number: string | null;
  payer_reported_paid_at: Date | null;
  metadata: PaymentRow['metadata'];
  sandbox: boolean;
  fee_amount: string;
  fee_state: string;
  fee_stripe: number | null;
  receipt_code: string | null;
  created_at: Date;
  updated_at: Date;
};

// Every column of the row, named: a statement prepared once per connection lists its columns, and
// this record fails to compile when PaymentSqlRow gains or loses one (as it must when Prisma's
// Payment does, through toPaymentRow).
const COLUMNS: Record<keyof PaymentSqlRow, true> = {
  id: true,
  project_id: true,
  merchant_id: true,
  card_id: true,
  link_id: true,
  link_client_address: true,
  status: true,
  amount_requested: true,
  code: true,
  amount_final: true,
  amount_mode: true,
  currency: true,
  order_id: true,
  description: true,
  callback_url: true,
  token: true,
  review_required: true,
  review_reason: true,
  confirmation_source: true,
  confirmed_at: true,
  confirmed_by_message_id: true,
  manual_note: true,
  amount_received: true,
  confirmed_late: true,
  refunded_amount: true,
  verified_at: true,
  verify_count: true,
  expires_at: true,
  late_until: true,
  expired_at: true,
  canceled_at: true,
  rejected_at: true,
  reject_reason: true,
  payer_phone: true,
  payer_card_last4: true,
  payer_tracking_number: true,
  payer_reported_paid_at: true,
  metadata: true,
  sandbox: true,
  fee_amount: true,
  fee_state: true,
  fee_stripe: true,
  receipt_code: true,
  created_at: true,
  updated_at: true,
};

/** `payments`' columns as a select list, qualified by `alias` when given (`p.id, p.project_id, …`). */
export function paymentColumns(alias?: string): string {
  return Object.keys(COLUMNS)
    .map((c) => (alias ? `${alias}.${c}` : c))
    .join(', ');
}

/** The same row as Prisma's `Payment`, so the doors and Pothos take it as they take Prisma's. */
export function toPaymentRow(r: PaymentSqlRow): PaymentRow {
  return {
    id: r.id,
    projectId: r.project_id,
    merchantId: r.merchant_id,
    cardId: r.card_id,
    linkId: r.link_id,
    linkClientAddress: r.link_client_address,
    status: r.status,
    amountRequested: BigInt(r.amount_requested),
    code: r.code,
    amountFinal: BigInt(r.amount_final),
    amountMode: r.amount_mode,
    currency: r.currency,
    orderId: r.order_id,
    description: r.description,
    callbackUrl: r.callback_url,
    token: r.token,
    reviewRequired: r.review_required,
    reviewReason: r.review_reason,
    confirmationSource: r.confirmation_source,
    confirmedAt: r.confirmed_at,
    confirmedByMessageId: r.confirmed_by_message_id,
    manualNote: r.manual_note,
    amountReceived: r.amount_received === null ? null : BigInt(r.amount_received),
    confirmedLate: r.confirmed_late,
    refundedAmount: BigInt(r.refunded_amount),
    verifiedAt: r.verified_at,
    verifyCount: r.verify_count,
    expiresAt: r.expires_at,
    lateUntil: r.late_until,
    expiredAt: r.expired_at,
    canceledAt: r.canceled_at,
    rejectedAt: r.rejected_at,
    rejectReason: r.reject_reason,
    payerPhone: r.payer_phone,
    payerCardLast4: r.payer_card_last4,
    payerTrackingNumber: r.payer_tracking_number,
    payerReportedPaidAt: r.payer_reported_paid_at,
    metadata: r.metadata,
    sandbox: r.sandbox,
    feeAmount: BigInt(r.fee_amount),
    feeState: r.fee_state,
    feeStripe: r.fee_stripe,
    receiptCode: r.receipt_code,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
