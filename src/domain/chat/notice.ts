import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { isChatEvent } from './kinds.js';
import { deviceEventHasChats, projectEventHasChats } from './store/links.js';

/**
 * Where the webhook events are emitted (payment and message events: `queueDeliveries`; device
 * events: `recordDeviceEvent`), the chats are told too: when any chat of a user of the event's
 * merchant takes its type, one `chat-notify` job, in the event's own transaction (a rolled-back
 * change tells nobody). Keyed by the type alone: an event type added to the chat list
 * (`CHAT_EVENT_TYPES`) flows through as soon as it is emitted. The job renders and fans out
 * (the chat-notify job, jobs/chat.ts), off the decision's transaction.
 */
export async function queueChatNotice(
  tx: Tx,
  jobs: JobQueue,
  notice: { type: string } & ({ eventId: string; projectId: string } | { deviceEventId: string; deviceId: string }),
): Promise<void> {
  if (!isChatEvent(notice.type)) return;
  const any = 'eventId' in notice ? await projectEventHasChats(tx, notice.projectId, notice.type) : await deviceEventHasChats(tx, notice.deviceId, notice.type);
  if (!any) return;
  await jobs.send('chat-notify', 'eventId' in notice ? { eventId: notice.eventId } : { deviceEventId: notice.deviceEventId }, { tx });
}
