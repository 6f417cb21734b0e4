import { z } from 'zod';
import type { Deps } from '../src/domain/deps.js';
import { expirePayment } from '../src/domain/payments/expiry.js';
import { checkedJob } from '../src/queue/job-queue.js';

/** Enqueued by the creating transaction with `startAfter` = `expiresAt`; re-checks status itself. */
export const expirePaymentJob = checkedJob({
  name: 'expire-payment',
  options: { retryLimit: 10, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  payload: z.object({ paymentId: z.uuid() }),
  run: async (deps: Deps, { paymentId }) => {
    await expirePayment(deps, paymentId);
  },
});
