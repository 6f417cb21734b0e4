import type { Deps } from '../src/domain/deps.js';
import { endOverdueLateWindows, expireOverduePayments } from '../src/domain/payments/expiry.js';
import type { JobDefinition } from '../src/queue/job-queue.js';

/**
 * Every minute: whatever the per-payment jobs missed (a queue lost, a database restored) is expired
 * or released here. Also run once when a worker starts, so a restart catches up at once.
 */
export const paymentSweepJob: JobDefinition<Deps> = {
  name: 'payment-sweep',
  options: { retryLimit: 2, expireInSeconds: 120 },
  cron: '* * * * *',
  runAtStart: true,
  handler: async (deps) => {
    const expired = await expireOverduePayments(deps);
    const released = await endOverdueLateWindows(deps);
    if (expired || released) deps.log.info({ expired, released }, 'payment sweep caught up');
  },
};
