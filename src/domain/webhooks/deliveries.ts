import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { queueChatNotice } from '../chat/notice.js';
import type { Deps } from '../deps.js';
import { sendAttemptJob } from './attempt-job.js';
import { subscribes } from './event-types.js';
import { DELIVERY_INCLUDE, postDelivery, type LoadedDelivery } from './post.js';
import { recordAttempt, type AttemptOutcome } from './record.js';
import { withEndpointSlot } from './slots.js';

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
export async function queueDeliveries(tx: Tx, jobs: JobQueue, event: { id: string; projectId: string; paymentId: string | null; type: string }) {
  // The linked chats hear of the same events (src/domain/chat/notice.ts), in the same transaction.
  await queueChatNotice(tx, jobs, { type: event.type, eventId: event.id, projectId: event.projectId });
  const endpoint = await tx.webhookEndpoint.findUnique({ where: { projectId: event.projectId } });
  if (!endpoint?.active || !subscribes(endpoint, event.type)) return;
  const delivery = await tx.webhookDelivery.create({
    data: { eventId: event.id, endpointId: endpoint.id, projectId: event.projectId, paymentId: event.paymentId, eventType: event.type, nextAttemptAt: new Date() },
  });
  await sendAttemptJob(jobs, delivery, 1, { tx });
}

/**
 * `queueDeliveries` for many events (one transition's batch: the expiry sweep), each project's
 * endpoint read once: the same chat notices, deliveries and jobs, event by event in the order given.
 */
export async function queueDeliveriesOfEvents(tx: Tx, jobs: JobQueue, events: { id: string; projectId: string; paymentId: string | null; type: string }[]) {
  if (events.length === 0) return;
  const endpoints = await tx.webhookEndpoint.findMany({ where: { projectId: { in: [...new Set(events.map((e) => e.projectId))] } } });
  const ofProject = new Map(endpoints.map((e) => [e.projectId, e]));
  for (const event of events) {
    await queueChatNotice(tx, jobs, { type: event.type, eventId: event.id, projectId: event.projectId });
    const endpoint = ofProject.get(event.projectId);
    if (!endpoint?.active || !subscribes(endpoint, event.type)) continue;
    const delivery = await tx.webhookDelivery.create({
      data: { eventId: event.id, endpointId: endpoint.id, projectId: event.projectId, paymentId: event.paymentId, eventType: event.type, nextAttemptAt: new Date() },
    });
    await sendAttemptJob(jobs, delivery, 1, { tx });
  }
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
 * One automatic attempt of one delivery: sign, POST, record the attempt, and decide what follows
 * (record.ts). `attempt` is the attempt the job was sent for; a job that runs again after that
 * attempt was recorded does nothing, so a duplicated job neither re-sends nor forks the retry
 * schedule. The attempt holds one of the endpoint's slots while it posts (manual sends too:
 * manual-send.ts); with every slot held it comes back later.
 */
export async function attemptDelivery(deps: Deps, deliveryId: string, opts: { attempt?: number } = {}): Promise<AttemptOutcome> {
  const delivery = await deps.prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, include: DELIVERY_INCLUDE });
  if (!delivery || delivery.status !== 'pending') return 'skipped';
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
  const holder = { endpointId: delivery.endpointId, holderId: deliveryId, limit: deps.config.webhookEndpointConcurrency };
  const sent = await withEndpointSlot(deps, holder, async () => recordAttempt(deps, delivery, await postDelivery(deps, delivery), { attempt }));
  if (sent) return sent.value;
  await sendAttemptJob(deps.jobs, delivery, attempt, { startAfter: new Date(Date.now() + SLOT_WAIT_MS) });
  return 'deferred';
}

function automaticAttempts(deps: Deps, deliveryId: string): Promise<number> {
  return deps.prisma.webhookAttempt.count({ where: { deliveryId, manual: false } });
}
