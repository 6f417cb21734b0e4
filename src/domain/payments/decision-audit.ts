import type { Tx } from '../../db/prisma.js';
import type { Actor } from '../auth/actor.js';
import { recordAudit } from '../audit/audit.js';
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
  | 'payment.review_dismissed';

/** One audit event for a merchant's decision on a payment, in the decision's transaction. */
export async function auditPaymentDecision(tx: Tx, actor: Actor, action: PaymentDecision, before: PaymentRow, after: PaymentRow, note: string | null): Promise<void> {
  await recordAudit(tx, actor, {
    action,
    subjectType: 'payment',
    subjectId: after.id,
    projectId: after.projectId,
    note,
    changes: changesOf(before, after, DECIDED_FIELDS),
  });
}
