import type { Deps } from '../deps.js';
import { sendAttemptJob } from './attempt-job.js';
import type { SendResult } from './http-sender.js';
import { recordEndpointOutcome } from './health.js';
import type { LoadedDelivery } from './post.js';
import { logRefusedTarget } from './refusal-log.js';
import { MAX_RETRIES, parseRetryAfter, retryDelayMs } from './schedule.js';
import { lockDeliveryRow } from './store/deliveries.js';

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'skipped' | 'deferred';

/**
 * Records one attempt and decides what follows: success, a retry on the schedule (its job enqueued
 * with the attempt record, atomically), or failure after the 10th retry. A manual attempt is
 * recorded the same way but schedules nothing. The endpoint's health follows every attempt.
 */
export async function recordAttempt(
  deps: Deps,
  delivery: LoadedDelivery,
  result: SendResult & { startedAt: Date },
  opts: { manual?: boolean; attempt?: number },
): Promise<AttemptOutcome> {
  const deliveryId = delivery.id;
  const now = result.startedAt;
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  logRefusedTarget(deps, delivery, result.error);
  return deps.prisma.$transaction(async (tx) => {
    await lockDeliveryRow(tx, deliveryId);
    const current = await tx.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    const attemptNumber = current.attemptCount + 1;
    await tx.webhookAttempt.create({
      data: {
        deliveryId,
        attemptNumber,
        manual: Boolean(opts.manual),
        startedAt: now,
        durationMs: result.durationMs,
        responseStatus: result.status,
        responseExcerpt: result.excerpt,
        error: result.error,
      },
    });
    // A success on an endpoint that was not failing when loaded changes nothing; skip the read.
    if (!ok || delivery.endpoint.failingSince !== null) await recordEndpointOutcome(tx, delivery.endpointId, ok, now);
    const seen = { attemptCount: attemptNumber, lastAttemptAt: now };
    if (ok) {
      await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { ...seen, status: 'succeeded', deliveredAt: new Date(), nextAttemptAt: null } });
      return 'succeeded';
    }
    if (opts.manual) {
      // A test delivery has one attempt only; a real one keeps whatever schedule it had.
      const status = current.test ? 'failed' : current.status;
      await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { ...seen, status } });
      return status === 'pending' ? 'retrying' : 'failed';
    }
    const automatic = await tx.webhookAttempt.count({ where: { deliveryId, manual: false } });
    if (current.status !== 'pending' || (opts.attempt !== undefined && automatic > opts.attempt)) {
      // A duplicate of this job ran alongside and already settled or scheduled what follows.
      await tx.webhookDelivery.update({ where: { id: deliveryId }, data: seen });
      return current.status === 'pending' ? 'retrying' : 'skipped';
    }
    const delay = automatic - 1 < MAX_RETRIES ? retryDelayMs(automatic, deps.config.webhookRetryScale, parseRetryAfter(result.retryAfter)) : null;
    if (delay === null) {
      await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { ...seen, status: 'failed', nextAttemptAt: null } });
      return 'failed';
    }
    const next = new Date(Date.now() + delay);
    await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { ...seen, nextAttemptAt: next } });
    await sendAttemptJob(deps.jobs, delivery, automatic + 1, { tx, startAfter: next });
    return 'retrying';
  });
}
