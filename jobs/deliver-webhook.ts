import { z } from 'zod';
import type { Deps } from '../src/domain/deps.js';
import { attemptDelivery, DELIVER_JOB } from '../src/domain/webhooks/deliveries.js';
import { checkedJob } from '../src/queue/job-queue.js';

/**
 * One attempt of a webhook delivery. If the worker dies mid-attempt, pg-boss hands the job out
 * again once it expires, so the delivery still completes (receivers dedupe on the delivery id).
 */
export const deliverWebhookJob = checkedJob({
  name: DELIVER_JOB,
  options: { retryLimit: 20, retryDelay: 2, retryBackoff: true, expireInSeconds: 20 },
  payload: z.object({ deliveryId: z.uuid() }),
  run: async (deps: Deps, { deliveryId }) => {
    const outcome = await attemptDelivery(deps, deliveryId);
    deps.log.info({ deliveryId, outcome }, 'webhook attempt');
  },
});
