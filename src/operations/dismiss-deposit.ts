import { z } from 'zod';
import type { BankMessage } from '../generated/prisma/client.js';
import { dismissRefusal, lockVisibleMessage, markDismissed } from '../domain/bank-messages/decisions.js';
import { syncGapsOfMessage } from '../domain/bank-messages/gap-decisions.js';
import { releaseReviewFlags } from '../domain/matching/review-flags.js';
import { noteSchema } from './confirm-by-hand.js';
import type { Operation } from './operation.js';

const input = z.object({ note: noteSchema });

/**
 * The merchant's decision that a message needs nothing more (no payment to confirm for it): it
 * becomes `dismissed`, the payments it flagged for review are released, and a balance gap it ended
 * is dismissed with it (audited on the gap too).
 */
export const dismissDeposit: Operation<z.output<typeof input>, BankMessage, BankMessage> = {
  name: 'dismiss a deposit',
  who: 'decider',
  input,
  emits: [],
  load: (tx, { actor, id }) => lockVisibleMessage(tx, actor, id),
  check: (message) => dismissRefusal(message),
  async write(tx, message, { note }, deps) {
    const dismissed = await markDismissed(tx, message.id, note ?? null);
    await releaseReviewFlags(tx, message);
    const gaps = await syncGapsOfMessage(tx, deps.jobs, message, 'dismissed');
    return {
      result: dismissed,
      audit: [
        {
          action: 'bank_message.dismissed',
          subjectType: 'bank_message',
          subjectId: message.id,
          projectId: message.projectId,
          merchantId: message.merchantId,
          note: note ?? null,
          changes: { status: { from: message.status, to: 'dismissed' } },
        },
        ...gaps,
      ],
    };
  },
};
