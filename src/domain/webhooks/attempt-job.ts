import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';

export const DELIVER_JOB = 'deliver-webhook';

/**
 * First attempts outrank retries in the queue, and part of the workers take nothing else, so a
 * backlog of retries never delays a first attempt (see jobs/deliver-webhook.ts).
 */
export const FIRST_ATTEMPT_PRIORITY = 1;

/**
 * The job of a delivery's automatic attempt number `attempt` (1 = the first). Grouped by endpoint,
 * so a process claims no more of one endpoint's jobs than its limit (jobs/deliver-webhook.ts).
 */
export function sendAttemptJob(jobs: JobQueue, delivery: { id: string; endpointId: string }, attempt: number, opts: { tx?: Tx; startAfter?: Date } = {}) {
  return jobs.send(DELIVER_JOB, { deliveryId: delivery.id, attempt }, { ...opts, group: delivery.endpointId, priority: attempt === 1 ? FIRST_ATTEMPT_PRIORITY : 0 });
}
