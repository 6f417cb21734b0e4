import { z } from 'zod';
import type { Deps } from '../src/domain/deps.js';
import { attemptDelivery, DELIVER_JOB } from '../src/domain/webhooks/deliveries.js';
import type { JobDefinition } from '../src/queue/job-queue.js';

const payload = z.object({ deliveryId: z.uuid() });

/**
 * One attempt of a webhook delivery. If the worker dies mid-attempt, pg-boss hands the job out
 * again once it expires, so the delivery still completes (receivers dedupe on the delivery id).
 */
export const deliverWebhookJob: JobDefinition<Deps> = {
  name: DELIVER_JOB,
  options: { retryLimit: 20, retryDelay: 2, retryBackoff: true, expireInSeconds: 20 },
  handler: async (deps, data) => {
    const parsed = payload.safeParse(data);
    if (!parsed.success) {
      deps.log.error({ data }, 'deliver-webhook: unreadable payload, dropped');
      return;
    }
    const outcome = await attemptDelivery(deps, parsed.data.deliveryId);
    deps.log.info({ deliveryId: parsed.data.deliveryId, outcome }, 'webhook attempt');
  },
};
