import type { Deps } from '../src/domain/deps.js';
import { endOverdueLateWindows } from '../src/domain/payments/expiry.js';
import { oneAtATime, type JobDefinition } from '../src/queue/job-queue.js';

/**
 * Every minute: reserved fees whose late window is over and whose end-late-window job was missed (a
 * queue lost, a database restored) are released here. Also run once when a worker starts, so a
 * restart catches up at once. Idempotent: it calls the same per-payment function as the job, a
 * no-op once done. One at a time, since two sweeps would only race each other for the same rows.
 * (Expiry has a sweep of its own, every half second: jobs/expire-due.ts.)
 */
export const paymentSweepJob: JobDefinition<Deps, 'payment-sweep'> = {
  name: 'payment-sweep',
  options: { retryLimit: 2, expireInSeconds: 120 },
  cron: '* * * * *',
  runAtStart: true,
  plan: oneAtATime,
  handler: async (deps) => {
    const released = await endOverdueLateWindows(deps);
    if (released) deps.log.info({ released }, 'payment sweep caught up');
  },
};
