import type { AuditInput } from '../audit/audit.js';
import { changesOf } from '../audit/changes.js';
import type { PaymentRow } from './types.js';

/** The payment fields a merchant's decision can move, as the audit log shows them. */
const DECIDED_FIELDS = ['status', 'confirmationSource', 'confirmedLate', 'amountReceived', 'confirmedByMessageId', 'feeState', 'rejectReason', 'reviewRequired', 'refundedAmount'] as const;

export type PaymentDecision =
  | 'payment.rejected'
  | 'payment.confirmed_manually'
  | 'payment.confirmed_late'
  | 'payment.deposit_attached'
  | 'payment.refunded'
  | 'payment.review_dismissed'
  | 'payment.gap_resolved';

/**
 * The audit event of a merchant's decision on a payment, from the row before and after it. An
 * operation returns it; the runner (src/operations/run.ts) records it in the decision's transaction.
 */
export function paymentDecisionAudit(action: PaymentDecision, before: PaymentRow, after: PaymentRow, note: string | null): AuditInput {
  return { action, subjectType: 'payment', subjectId: after.id, projectId: after.projectId, note, changes: changesOf(before, after, DECIDED_FIELDS) };
}
