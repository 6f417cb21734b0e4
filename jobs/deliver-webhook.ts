import type { Deps } from '../src/domain/deps.js';
import { FIRST_ATTEMPT_PRIORITY } from '../src/domain/webhooks/attempt-job.js';
import { attemptDelivery } from '../src/domain/webhooks/deliveries.js';
import { checkedJob } from '../src/queue/job-queue.js';

/**
 * One attempt of a webhook delivery. If the worker dies mid-attempt, pg-boss hands the job out
 * again once it expires, so the delivery still completes (receivers dedupe on the delivery id).
 * Idempotent: the job names its attempt number, and one whose attempt is already recorded does
 * nothing (jobs sent before that field existed attempt whatever is next).
 *
 * WEBHOOK_CONCURRENCY attempts in flight per process, one job per fetch loop because an attempt can
 * take the whole 10 s timeout. Half the loops take first attempts only, so retries can hold at most
 * the other half. WEBHOOK_ENDPOINT_CONCURRENCY per endpoint: pg-boss groups keep a process from
 * claiming past it, the slot leases in src/domain/webhooks/slots.ts hold it across processes, so a
 * slow or dead endpoint holds at most that many workers and the others stay free for everyone else.
 */
export const deliverWebhookJob = checkedJob({
  name: 'deliver-webhook',
  options: { retryLimit: 20, retryDelay: 2, retryBackoff: true, expireInSeconds: 20 },
  plan: (config) => {
    const firstOnly = Math.ceil(config.webhookConcurrency / 2);
    // pg-boss keeps one per-group count for the queue, and it may not exceed a plan's workers.
    const perGroup = Math.min(config.webhookEndpointConcurrency, config.webhookConcurrency - firstOnly);
    return [
      { workers: firstOnly, batchSize: 1, pollSeconds: 1, minPriority: FIRST_ATTEMPT_PRIORITY, perGroup },
      { workers: config.webhookConcurrency - firstOnly, batchSize: 1, pollSeconds: 1, perGroup },
    ];
  },
  run: async (deps: Deps, { deliveryId, attempt }) => {
    const outcome = await attemptDelivery(deps, deliveryId, attempt === undefined ? {} : { attempt });
    deps.log.info({ deliveryId, attempt, outcome }, 'webhook attempt');
  },
});
