import type { Deps } from '../src/domain/deps.js';
import { expireDuePayments } from '../src/domain/payments/expiry-batch.js';
import { endOverdueLateWindows } from '../src/domain/payments/expiry.js';
import { oneAtATime, type JobDefinition } from '../src/queue/job-queue.js';

/**
 * Every minute: whatever the per-payment jobs missed (a queue lost, a database restored) is expired
 * or released here. Also run once when a worker starts, so a restart catches up at once. Idempotent:
 * it calls the same per-payment functions as the jobs, each a no-op once done. One at a time, since
 * two sweeps would only race each other for the same rows.
 */
export const paymentSweepJob: JobDefinition<Deps, 'payment-sweep'> = {
  name: 'payment-sweep',
  options: { retryLimit: 2, expireInSeconds: 120 },
  cron: '* * * * *',
  runAtStart: true,
  plan: oneAtATime,
  handler: async (deps) => {
    const expired = await expireDuePayments(deps, { concurrency: deps.config.expiryConcurrency });
    const released = await endOverdueLateWindows(deps);
    if (expired || released) deps.log.info({ expired, released }, 'payment sweep caught up');
  },
};
