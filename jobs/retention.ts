import type { Deps } from '../src/domain/deps.js';
import { runRetention } from '../src/domain/retention/retention.js';
import { oneAtATime, type JobDefinition } from '../src/queue/job-queue.js';

/**
 * Once a day (03:30 Tehran, a quiet hour), what is past its retention period goes
 * (docs/operations.md "Retention"). Each statement is idempotent; a run cut short is finished by
 * the next.
 */
export const retentionJob: JobDefinition<Deps, 'retention'> = {
  name: 'retention',
  options: { retryLimit: 3, expireInSeconds: 3_600 },
  cron: '0 0 * * *',
  plan: oneAtATime,
  handler: async (deps) => {
    await runRetention(deps.pool, deps.config.retention, deps.log);
  },
};
