import type { Refund } from '../generated/prisma/client.js';

/** A refund as REST shows it, in the order of the OpenAPI document's `Refund` (src/rest/openapi-refunds.ts). */
export function refundRecord(r: Refund) {
  return {
    id: r.id,
    paymentId: r.paymentId,
    bankMessageId: r.bankMessageId,
    amount: r.amount.toString(),
    destinationCard: r.destinationCard,
    destinationSheba: r.destinationSheba,
    reference: r.reference,
    note: r.note,
    createdAt: r.createdAt.toISOString(),
  };
}
