import type { Card, PaymentLink, Project } from '../../generated/prisma/client.js';
import { bankName } from '../cards/banks.js';
import type { Currency } from '../banking/currency.js';
import type { PaymentRow } from '../payments/types.js';

/** The payment fields the payer's view is built from (its read selects only these). */
export type ViewPayment = Pick<
  PaymentRow,
  | 'id'
  | 'token'
  | 'status'
  | 'amountRequested'
  | 'amountFinal'
  | 'amountMode'
  | 'currency'
  | 'description'
  | 'orderId'
  | 'expiresAt'
  | 'lateUntil'
  | 'callbackUrl'
  | 'payerReportedPaidAt'
  | 'confirmedAt'
  | 'receiptCode'
  | 'sandbox'
>;

/** The payment and the few fields of its project, card and link the payer sees. */
export type ViewSource = ViewPayment & {
  project: Pick<Project, 'autoConfirm' | 'name' | 'displayName' | 'logoUrl' | 'color' | 'note' | 'supportPhone'>;
  card: Pick<Card, 'bankCode' | 'cardNumber' | 'holderName'>;
  link: Pick<PaymentLink, 'slug' | 'title'> | null;
};

/**
 * The checkout view for the payer (OpenAPI `CheckoutView`), with `paymentId` (the callback's
 * `service_ref`) and `lateUntil` (how long a payer who reported paying is asked to wait) added. The
 * card is shown while pending and once confirmed, never for expired, canceled or rejected payments.
 * Dates stay dates: each door renders them (REST as RFC 3339 through JSON, GraphQL through its
 * DateTime scalar).
 */
export function checkoutView(p: ViewSource, now = new Date()) {
  const pending = p.status === 'pending';
  const showCard = pending || p.status === 'confirmed';
  return {
    token: p.token,
    paymentId: p.id,
    status: p.status,
    amountRequested: p.amountRequested.toString(),
    amountFinal: p.amountFinal.toString(),
    amountMode: p.amountMode,
    // The unit the shop sent the amount in: the page shows it first, and the other beside it.
    currency: p.currency as Currency,
    displayUnit: 'toman',
    autoConfirm: p.project.autoConfirm,
    description: p.description,
    orderId: p.orderId,
    expiresAt: p.expiresAt,
    remainingSeconds: pending ? Math.max(0, Math.ceil((p.expiresAt.getTime() - now.getTime()) / 1000)) : 0,
    lateUntil: p.lateUntil,
    callbackUrl: p.callbackUrl,
    payerReportedPaidAt: p.payerReportedPaidAt,
    confirmedAt: p.confirmedAt,
    receiptCode: p.status === 'confirmed' ? p.receiptCode : null,
    sandbox: p.sandbox,
    card: showCard
      ? { bankCode: p.card.bankCode, bankName: bankName(p.card.bankCode), cardNumber: p.card.cardNumber, holderName: p.card.holderName }
      : null,
    project: {
      displayName: p.project.displayName ?? p.project.name,
      logoUrl: p.project.logoUrl,
      color: p.project.color,
      note: p.project.note,
      supportPhone: p.project.supportPhone,
    },
    link: p.link ? { slug: p.link.slug, title: p.link.title } : null,
  };
}

export type CheckoutView = ReturnType<typeof checkoutView>;
