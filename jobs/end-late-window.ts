import type { Deps } from '../src/domain/deps.js';
import { endLateWindow } from '../src/domain/payments/expiry.js';
import { checkedJob } from '../src/queue/job-queue.js';

/**
 * At the end of an expired live payment's late window, its reserved fee is released. Idempotent:
 * `endLateWindow` re-checks `feeState` under the payment's lock, so a second run releases nothing.
 */
export const endLateWindowJob = checkedJob({
  name: 'end-late-window',
  options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  run: async (deps: Deps, { paymentId }) => {
    await endLateWindow(deps, paymentId);
  },
});
