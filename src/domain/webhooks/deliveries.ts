import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import type { Deps } from '../deps.js';
import { sendAttemptJob } from './attempt-job.js';
import { subscribes } from './event-types.js';
import { DELIVERY_INCLUDE, postDelivery, type LoadedDelivery } from './post.js';
import { recordAttempt, type AttemptOutcome } from './record.js';
import { releaseEndpointSlot, takeEndpointSlot } from './slots.js';

// A later event waits this long, at most once per check, for an earlier one's first attempt.
const ORDER_WAIT_MS = 1_000;
const ORDER_PATIENCE_MS = 60_000;
// An attempt that found every slot of its endpoint taken (by other processes, or leases of a
// worker that died) comes back after this long.
const SLOT_WAIT_MS = 1_000;

/**
 * For an event just written: one delivery per active endpoint of its project that opted into the
 * event's type, and the job that sends it, in the event's own transaction (a rolled-back state
 * change sends nothing).
 */
export async function queueDeliveries(tx: Tx, jobs: JobQueue, event: { id: string; projectId: string; paymentId: string; type: string }) {
  const endpoint = await tx.webhookEndpoint.findUnique({ where: { projectId: event.projectId } });
  if (!endpoint?.active || !subscribes(endpoint, event.type)) return;
  const delivery = await tx.webhookDelivery.create({
    data: { eventId: event.id, endpointId: endpoint.id, projectId: event.projectId, paymentId: event.paymentId, eventType: event.type, nextAttemptAt: new Date() },
  });
  await sendAttemptJob(jobs, delivery, 1, { tx });
}

/** A payment's events are first attempted in order: is an earlier one of this payment still waiting for its first attempt? */
async function earlierWaiting(deps: Deps, delivery: LoadedDelivery): Promise<boolean> {
  if (delivery.attemptCount > 0 || !delivery.event || !delivery.paymentId) return false;
  // A failing earlier event does not block (it has attempts). Only a recent earlier delivery is
  // waited for: one whose job was lost must not hold this one forever.
  const earlier = await deps.prisma.webhookDelivery.count({
    where: {
      paymentId: delivery.paymentId,
      endpointId: delivery.endpointId,
      status: 'pending',
      attemptCount: 0,
      event: { seq: { lt: delivery.event.seq } },
      createdAt: { gt: new Date(Date.now() - ORDER_PATIENCE_MS) },
    },
  });
  return earlier > 0;
}

/**
 * One attempt of one delivery: sign, POST, record the attempt, and decide what follows (record.ts).
 * `attempt` is the automatic attempt the job was sent for; a job that runs again after that attempt
 * was recorded does nothing, so a duplicated job neither re-sends nor forks the retry schedule.
 * Automatic attempts hold one of the endpoint's slots while they post; a manual attempt (re-send,
 * test event) is the merchant waiting on the answer and takes none.
 */
export async function attemptDelivery(deps: Deps, deliveryId: string, opts: { manual?: boolean; attempt?: number } = {}): Promise<AttemptOutcome> {
  const delivery = await deps.prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, include: DELIVERY_INCLUDE });
  if (!delivery) return 'skipped';
  if (opts.manual) return recordAttempt(deps, delivery, await postDelivery(deps, delivery), opts);
  if (delivery.status !== 'pending') return 'skipped';
  const done = await automaticAttempts(deps, deliveryId);
  if (opts.attempt !== undefined && done >= opts.attempt) return 'skipped';
  const attempt = opts.attempt ?? done + 1;
  if (!delivery.endpoint.active) {
    // Disabled (5 days of failures): the delivery stops here; the merchant can re-send it by hand.
    await deps.prisma.webhookDelivery.updateMany({ where: { id: deliveryId, status: 'pending' }, data: { status: 'failed', nextAttemptAt: null } });
    return 'failed';
  }
  if (await earlierWaiting(deps, delivery)) {
    await sendAttemptJob(deps.jobs, delivery, attempt, { startAfter: new Date(Date.now() + ORDER_WAIT_MS) });
    return 'deferred';
  }
  const slot = await takeEndpointSlot(deps.prisma, delivery.endpointId, deliveryId, deps.config.webhookEndpointConcurrency);
  if (slot === null) {
    await sendAttemptJob(deps.jobs, delivery, attempt, { startAfter: new Date(Date.now() + SLOT_WAIT_MS) });
    return 'deferred';
  }
  try {
    return await recordAttempt(deps, delivery, await postDelivery(deps, delivery), { attempt });
  } finally {
    await releaseEndpointSlot(deps.prisma, delivery.endpointId, slot, deliveryId);
  }
}

function automaticAttempts(deps: Deps, deliveryId: string): Promise<number> {
  return deps.prisma.webhookAttempt.count({ where: { deliveryId, manual: false } });
}

/** A signed sample event to the project's endpoint, recorded like any delivery. */
export async function createTestDelivery(deps: Deps, projectId: string): Promise<string | null> {
  const endpoint = await deps.prisma.webhookEndpoint.findUnique({ where: { projectId } });
  if (!endpoint) return null;
  const delivery = await deps.prisma.webhookDelivery.create({
    data: { id: randomUUID(), endpointId: endpoint.id, projectId, eventType: 'payment.confirmed', test: true, status: 'pending' },
  });
  return delivery.id;
}
