import { z } from 'zod';
import { processBankMessage } from '../src/domain/bank-messages/ingest.js';
import type { Deps } from '../src/domain/deps.js';
import { checkedJob } from '../src/queue/job-queue.js';

/** Rescues a stored message whose processing was cut off; a no-op once it has an outcome. */
export const processBankMessageJob = checkedJob({
  name: 'process-bank-message',
  options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  payload: z.object({ messageId: z.uuid() }),
  run: async (deps: Deps, { messageId }) => {
    await processBankMessage(deps, messageId);
  },
});
