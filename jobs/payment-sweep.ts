import type { Deps } from '../src/domain/deps.js';
import { endOverdueLateWindows } from '../src/domain/payments/expiry.js';
import { oneAtATime, type JobDefinition } from '../src/queue/job-queue.js';

/**
 * Every minute, and once when a worker starts: the late-window sweep's function run once more
 * (jobs/end-late-windows.ts runs it every second in each worker process), a backstop should that
 * ticker stall. Idempotent, one at a time (two would only race for the same rows; rows are
 * claimed with SKIP LOCKED anyway).
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
