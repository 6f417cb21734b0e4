import type { Deps } from '../src/domain/deps.js';
import { expireBatch } from '../src/domain/payments/expiry-batch.js';
import { expirePayment } from '../src/domain/payments/expiry.js';
import { checkedJob } from '../src/queue/job-queue.js';

/**
 * Enqueued by the creating transaction with `startAfter` = `expiresAt`. Idempotent: `expireBatch` and
 * `expirePayment` lock the payments and act only on pending ones past their deadline, so a second run is a no-op.
 * A burst of deadlines is claimed in batches by two loops (EXPIRY_CONCURRENCY in flight in all) and
 * polled every 0.5 s, pg-boss's minimum, because delayed jobs are found by polling, not NOTIFY.
 */
export const expirePaymentJob = checkedJob({
  name: 'expire-payment',
  options: { retryLimit: 10, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  plan: (config) => [{ workers: 2, batchSize: Math.ceil(config.expiryConcurrency / 2), pollSeconds: 0.5 }],
  run: async (deps: Deps, { paymentId }) => {
    await expirePayment(deps, paymentId);
  },
  // A fetched batch is expired in one transaction (expireBatch): a burst of deadlines costs a few
  // statements per batch, not a transaction per payment.
  runBatch: async (deps: Deps, jobs) => {
    await expireBatch(deps, [...new Set(jobs.map((j) => j.paymentId))]);
  },
});
