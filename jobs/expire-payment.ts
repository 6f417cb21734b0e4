import { z } from 'zod';
import type { Deps } from '../src/domain/deps.js';
import { expirePayment } from '../src/domain/payments/expiry.js';
import type { JobDefinition } from '../src/queue/job-queue.js';

const payload = z.object({ paymentId: z.uuid() });

/** Enqueued by the creating transaction with `startAfter` = `expiresAt`; re-checks status itself. */
export const expirePaymentJob: JobDefinition<Deps> = {
  name: 'expire-payment',
  options: { retryLimit: 10, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  handler: async (deps, data) => {
    const parsed = payload.safeParse(data);
    if (!parsed.success) {
      deps.log.error({ data }, 'expire-payment: unreadable payload, dropped');
      return;
    }
    await expirePayment(deps, parsed.data.paymentId);
  },
};
