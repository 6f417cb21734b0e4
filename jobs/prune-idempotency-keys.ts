import type { Deps } from '../src/domain/deps.js';
import { oneAtATime, type JobDefinition } from '../src/queue/job-queue.js';

/**
 * Idempotency keys are honoured for 24 h; afterwards their stored responses are dropped. Rate-limit
 * buckets whose minute has passed go too. Deleting what has expired is idempotent.
 */
export const pruneIdempotencyKeys: JobDefinition<Deps, 'prune-idempotency-keys'> = {
  name: 'prune-idempotency-keys',
  options: { retryLimit: 3, expireInSeconds: 300 },
  cron: '*/15 * * * *',
  plan: oneAtATime,
  handler: async (deps) => {
    const { count } = await deps.prisma.idempotencyKey.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    const buckets = await deps.prisma.$executeRaw`DELETE FROM rate_limit.buckets WHERE expire IS NOT NULL AND expire < ${Date.now()}`;
    if (count > 0 || buckets > 0) deps.log.info({ idempotencyKeys: count, rateLimitBuckets: buckets }, 'pruned expired rows');
  },
};
