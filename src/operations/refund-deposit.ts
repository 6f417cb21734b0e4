import type { z } from 'zod';
import type { BankMessage } from '../generated/prisma/client.js';
import { lockVisibleMessage } from '../domain/bank-messages/decisions.js';
import { syncGapsOfMessage } from '../domain/bank-messages/gap-decisions.js';
import { releaseReviewFlags } from '../domain/matching/review-flags.js';
import { depositRefundRefusal, messageRefundInput, recordDepositRefund, type RefundedMessage } from '../domain/refunds/refunds.js';
import type { Operation } from './operation.js';

/**
 * The refund of a deposit that belongs to no payment (unmatched, needs_review or dismissed), whole
 * or in part: the message becomes `refunded`, the payments it flagged for review are released, and
 * a balance gap it ended is dismissed with it (audited on the gap too).
 */
export const refundDeposit: Operation<z.output<typeof messageRefundInput>, BankMessage, RefundedMessage> = {
  name: 'refund a loose deposit',
  who: 'decider',
  input: messageRefundInput,
  emits: [],
  load: (tx, { actor, id }) => lockVisibleMessage(tx, actor, id),
  check: (message, { amount }) => depositRefundRefusal(message, amount),
  async write(tx, message, data, deps) {
    const refunded = await recordDepositRefund(tx, message, data);
    await releaseReviewFlags(tx, message);
    const gaps = await syncGapsOfMessage(tx, deps.jobs, message, 'refunded');
    return {
      result: refunded,
      audit: [
        {
          action: 'bank_message.refunded',
          subjectType: 'bank_message',
          subjectId: message.id,
          projectId: message.projectId,
          merchantId: message.merchantId,
          note: data.note ?? null,
          changes: { status: { from: message.status, to: 'refunded' }, refundId: { from: null, to: refunded.refund.id }, amount: { from: null, to: refunded.refund.amount.toString() } },
        },
        ...gaps,
      ],
    };
  },
};
