import type { JobDefinition } from '../src/queue/job-queue.js';
import type { Deps } from '../src/domain/deps.js';

/** Idempotency keys are honoured for 24 h; afterwards their stored responses are dropped. */
export const pruneIdempotencyKeys: JobDefinition<Deps> = {
  name: 'prune-idempotency-keys',
  options: { retryLimit: 3, expireInSeconds: 300 },
  cron: '*/15 * * * *',
  handler: async (deps) => {
    const { count } = await deps.prisma.idempotencyKey.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    if (count > 0) deps.log.info({ count }, 'pruned expired idempotency keys');
  },
};
