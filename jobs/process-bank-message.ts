import { giveUpOnMessage } from '../src/domain/bank-messages/give-up.js';
import { processBankMessage } from '../src/flows/bank-message-in.js';
import type { Deps } from '../src/domain/deps.js';
import { checkedJob } from '../src/queue/job-queue.js';

/** Rescues a stored message whose processing was cut off; a no-op once it has an outcome (checked under the message's row lock), so it may run twice. */
export const processBankMessageJob = checkedJob({
  name: 'process-bank-message',
  options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  run: async (deps: Deps, { messageId }) => {
    try {
      await processBankMessage(deps, messageId);
    } catch (err) {
      // Issue 13: after its retries the job marks the message `unparsed` instead of leaving it stuck.
      if (!(await giveUpOnMessage(deps, messageId, err))) throw err;
    }
  },
});
