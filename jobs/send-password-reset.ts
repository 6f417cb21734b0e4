import type { Deps } from '../src/domain/deps.js';
import { sendPasswordResetMail } from '../src/domain/users/reset-mail.js';
import { checkedJob } from '../src/queue/job-queue.js';

/** One password-reset mail (src/domain/users/password-reset.ts); a link used or replaced meanwhile sends nothing. */
export const sendPasswordResetJob = checkedJob({
  name: 'send-password-reset',
  options: { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 60 },
  run: async (deps: Deps, data) => {
    await sendPasswordResetMail(deps, data);
  },
});
