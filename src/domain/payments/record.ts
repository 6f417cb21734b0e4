import { jsonColumn } from '../../ordered-json.js';
import type { PaymentRow } from './types.js';

/**
 * The merchant's metadata as an object in the order it was sent. The column is read as its JSON
 * text (src/db/pool.ts), which alone keeps integer-like keys where the merchant put them.
 */
export function paymentMetadata(p: Pick<PaymentRow, 'metadata'>): Record<string, unknown> | null {
  return p.metadata === null || p.metadata === undefined ? null : (jsonColumn(p.metadata) as Record<string, unknown>);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** SPEC 2.1, every field present (null when unset), amounts as digit strings, in spec order. */
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

export type PaymentRecord = ReturnType<typeof paymentRecord>;

export function checkoutUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/pay/${token}`;
}

/** SPEC 2.2. `alreadyVerified` is whether verify had seen it confirmed before this call. */
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
