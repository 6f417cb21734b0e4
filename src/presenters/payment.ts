import { paymentMetadata } from '../domain/payments/fields.js';
import type { PaymentRow } from '../domain/payments/types.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The payment record (OpenAPI `Payment`), every field present (null when unset), amounts as digit strings, in the document's order. */
export function paymentRecord(p: PaymentRow) {
  return {
    id: p.id,
    status: p.status,
    amountRequested: p.amountRequested.toString(),
    amountFinal: p.amountFinal.toString(),
    code: p.code,
    amountMode: p.amountMode,
    currency: p.currency,
    orderId: p.orderId,
    description: p.description,
    token: p.token,
    reviewRequired: p.reviewRequired,
    reviewReason: p.reviewReason,
    confirmationSource: p.confirmationSource,
    confirmedAt: iso(p.confirmedAt),
    verifiedAt: iso(p.verifiedAt),
    verifyCount: p.verifyCount,
    expiresAt: iso(p.expiresAt),
    payerPhone: p.payerPhone,
    payerCardLast4: p.payerCardLast4,
    payerTrackingNumber: p.payerTrackingNumber,
    payerReportedPaidAt: iso(p.payerReportedPaidAt),
    bankMessageId: p.confirmedByMessageId,
    amountReceived: p.amountReceived === null ? null : p.amountReceived.toString(),
    confirmedLate: p.confirmedLate,
    manualNote: p.manualNote,
    refundedAmount: p.refundedAmount.toString(),
    metadata: paymentMetadata(p),
    sandbox: p.sandbox,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}

/** Verify's answer (OpenAPI `VerifyResult`, docs/integration.md "5. Verify"). `alreadyVerified` is whether verify had seen it confirmed before this call. */
export function verifyResult(p: PaymentRow, alreadyVerified: boolean) {
  return {
    id: p.id,
    status: p.status,
    verified: p.status === 'confirmed',
    alreadyVerified,
    orderId: p.orderId,
    amountRequested: p.amountRequested.toString(),
    amountFinal: p.amountFinal.toString(),
    confirmedAt: iso(p.confirmedAt),
    confirmationSource: p.confirmationSource,
    payerCardLast4: p.payerCardLast4,
    sandbox: p.sandbox,
  };
}

export type VerifyResult = ReturnType<typeof verifyResult>;
