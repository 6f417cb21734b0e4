import type { Tx } from '../../db/prisma.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { queueChatNotice } from '../chat/notice.js';
import { sendAttemptJob } from './attempt-job.js';
import type { DeviceEventType } from './event-types.js';

/** `extra`: the fields a health event adds to the body (device.low_battery: battery, charging; device.silent: lastBankMessageAt). */
export type DeviceTransition = { deviceId: string; type: DeviceEventType; lastSeenAt: Date | null; extra?: Record<string, string | number | boolean | null> };

/**
 * A device's transition and its deliveries, in the transaction that changed its notified state: one
 * delivery per active endpoint that opted into the type, among the projects of the device's active
 * cards (the body's `projectIds`). Returns the event id.
 */
export async function recordDeviceEvent(tx: Tx, jobs: JobQueue, transition: DeviceTransition): Promise<string> {
  const cards = await tx.card.findMany({ where: { deviceId: transition.deviceId, active: true }, select: { projectId: true }, distinct: ['projectId'] });
  const projectIds = cards.map((c) => c.projectId).sort();
  const payload = {
    event: transition.type,
    deviceId: transition.deviceId,
    projectIds,
    lastSeenAt: transition.lastSeenAt ? transition.lastSeenAt.toISOString() : null,
    ...transition.extra,
  };
  const event = await tx.deviceEvent.create({ data: { deviceId: transition.deviceId, type: transition.type, payload: payload as Prisma.InputJsonObject } });
  // The linked chats hear of the same events (src/domain/chat/notice.ts), in the same transaction.
  await queueChatNotice(tx, jobs, { type: transition.type, deviceEventId: event.id, deviceId: transition.deviceId });
  const endpoints = await tx.webhookEndpoint.findMany({ where: { projectId: { in: projectIds }, active: true, events: { has: transition.type } } });
  for (const endpoint of endpoints) {
    const delivery = await tx.webhookDelivery.create({
      data: { deviceEventId: event.id, endpointId: endpoint.id, projectId: endpoint.projectId, eventType: transition.type, nextAttemptAt: new Date() },
    });
    await sendAttemptJob(jobs, delivery, 1, { tx });
  }
  return event.id;
}
