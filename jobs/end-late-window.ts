import { z } from 'zod';
import type { Deps } from '../src/domain/deps.js';
import { endLateWindow } from '../src/domain/payments/expiry.js';
import type { JobDefinition } from '../src/queue/job-queue.js';

const payload = z.object({ paymentId: z.uuid() });

/** At the end of an expired live payment's late window, its reserved fee is released. */
export const endLateWindowJob: JobDefinition<Deps> = {
  name: 'end-late-window',
  options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  handler: async (deps, data) => {
    const parsed = payload.safeParse(data);
    if (!parsed.success) {
      deps.log.error({ data }, 'end-late-window: unreadable payload, dropped');
      return;
    }
    await endLateWindow(deps, parsed.data.paymentId);
  },
};
