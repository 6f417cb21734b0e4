import { z } from 'zod';
import { processBankMessage } from '../src/domain/bank-messages/ingest.js';
import type { Deps } from '../src/domain/deps.js';
import type { JobDefinition } from '../src/queue/job-queue.js';

const payload = z.object({ messageId: z.uuid() });

/** Rescues a stored message whose processing was cut off; a no-op once it has an outcome. */
export const processBankMessageJob: JobDefinition<Deps> = {
  name: 'process-bank-message',
  options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  handler: async (deps, data) => {
    const parsed = payload.safeParse(data);
    if (!parsed.success) {
      deps.log.error({ data }, 'process-bank-message: unreadable payload, dropped');
      return;
    }
    await processBankMessage(deps, parsed.data.messageId);
  },
};
