import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import type { Deps } from '../deps.js';
import { postWebhook } from './http-sender.js';
import { MAX_RETRIES, parseRetryAfter, retryDelayMs } from './schedule.js';
import { signatureHeader } from './signature.js';

export const DELIVER_JOB = 'deliver-webhook';

// A later event waits this long, at most once per check, for an earlier one's first attempt.
const ORDER_WAIT_MS = 1_000;
const ORDER_PATIENCE_MS = 60_000;

/**
 * For an event just written: one delivery per active endpoint of its project, and the job that
 * sends it, in the event's own transaction (a rolled-back state change sends nothing).
 */
export async function queueDeliveries(tx: Tx, jobs: JobQueue, event: { id: string; projectId: string; paymentId: string; type: string }) {
  const endpoint = await tx.webhookEndpoint.findUnique({ where: { projectId: event.projectId } });
  if (!endpoint?.active) return;
  const delivery = await tx.webhookDelivery.create({
    data: { eventId: event.id, endpointId: endpoint.id, projectId: event.projectId, paymentId: event.paymentId, eventType: event.type, nextAttemptAt: new Date() },
  });
  await jobs.send(DELIVER_JOB, { deliveryId: delivery.id }, { tx });
}

function samplePayload(deliveryId: string) {
  return {
    event: 'payment.confirmed',
    paymentId: '00000000-0000-4000-8000-000000000000',
    status: 'confirmed',
    orderId: 'test-order',
    amountRequested: '100000',
    amountFinal: '100120',
    confirmedAt: new Date().toISOString(),
    confirmationSource: 'auto_sms',
    sandbox: true,
    metadata: { test: true, deliveryId },
    reason: null,
  };
}

type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'skipped' | 'deferred';

/**
 * One attempt of one delivery: sign, POST, record the attempt, and decide what follows: success,
 * a retry on the schedule (enqueued with the attempt record, atomically), or failure after the
 * 10th retry. A manual attempt is recorded the same way but schedules nothing.
 */
export async function attemptDelivery(deps: Deps, deliveryId: string, opts: { manual?: boolean } = {}): Promise<AttemptOutcome> {
  const delivery = await deps.prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true, event: true } });
  if (!delivery) return 'skipped';
  if (!opts.manual && delivery.status !== 'pending') return 'skipped';

  if (!opts.manual && delivery.attemptCount === 0 && delivery.event && delivery.paymentId) {
    // A payment's events are first attempted in order; a failing earlier event does not block (it has attempts).
    // Only a recent earlier delivery is waited for: one whose job was lost must not hold this one forever.
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
    if (earlier > 0) {
      await deps.jobs.send(DELIVER_JOB, { deliveryId }, { startAfter: new Date(Date.now() + ORDER_WAIT_MS) });
      return 'deferred';
    }
  }

  const now = new Date();
  const payload = delivery.event ? (delivery.event.payload as Record<string, unknown>) : samplePayload(delivery.id);
  const body = JSON.stringify({ ...payload, deliveryId: delivery.id, sentAt: now.toISOString() });
  const { endpoint } = delivery;
  const secrets = [deps.secrets.open(endpoint.secretCiphertext)];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(deps.secrets.open(endpoint.previousSecretCiphertext));
  }
  const result = await postWebhook({
    url: endpoint.url,
    body,
    allowPrivate: deps.config.webhookAllowPrivate,
    lookup: deps.lookup,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'c2c-gateway-webhooks/1',
      'x-service-event': String(payload.event),
      'x-service-delivery': delivery.id,
      'x-service-signature': signatureHeader(secrets, Math.floor(now.getTime() / 1000), body),
    },
  });
  const ok = result.status !== null && result.status >= 200 && result.status < 300;

  return deps.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE id = ${deliveryId}::uuid FOR UPDATE`;
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
    if (ok) {
      await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { attemptCount: attemptNumber, lastAttemptAt: now, status: 'succeeded', deliveredAt: new Date(), nextAttemptAt: null } });
      return 'succeeded';
    }
    if (opts.manual) {
      // A test delivery has one attempt only; a real one keeps whatever schedule it had.
      const status = current.test ? 'failed' : current.status;
      await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { attemptCount: attemptNumber, lastAttemptAt: now, status } });
      return status === 'pending' ? 'retrying' : 'failed';
    }
    const automatic = await tx.webhookAttempt.count({ where: { deliveryId, manual: false } });
    const delay = automatic - 1 < MAX_RETRIES ? retryDelayMs(automatic, deps.config.webhookRetryScale, parseRetryAfter(result.retryAfter)) : null;
    if (delay === null) {
      await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { attemptCount: attemptNumber, lastAttemptAt: now, status: 'failed', nextAttemptAt: null } });
      return 'failed';
    }
    const next = new Date(Date.now() + delay);
    await tx.webhookDelivery.update({ where: { id: deliveryId }, data: { attemptCount: attemptNumber, lastAttemptAt: now, nextAttemptAt: next } });
    await deps.jobs.send(DELIVER_JOB, { deliveryId }, { tx, startAfter: next });
    return 'retrying';
  });
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
