import type { JobData } from '../../queue/job-types.js';
import type { Deps } from '../deps.js';
import { renderNotice, type NoticeSource } from './render.js';
import { createPrompt, queueChatMessage } from './send.js';
import { linksTaking } from './store/links.js';

/** Loads what a `chat-notify` job names (a project event or a device event) and fans it out. */
export async function fanOutNotice(deps: Deps, data: JobData<'chat-notify'>): Promise<number> {
  if (data.eventId) {
    const event = await deps.prisma.event.findUnique({ where: { id: data.eventId }, include: { project: { select: { merchantId: true } } } });
    if (!event) return 0;
    const payload = payloadOf(event.payload);
    return fanOutSource(deps, event.project.merchantId, { type: event.type, payload, createdAt: event.createdAt, projectId: event.projectId, paymentId: event.paymentId, bankMessageId: event.bankMessageId }, event.id);
  }
  if (data.deviceEventId) {
    const event = await deps.prisma.deviceEvent.findUnique({ where: { id: data.deviceEventId }, include: { device: { select: { merchantId: true } } } });
    if (!event) return 0;
    const payload = payloadOf(event.payload);
    return fanOutSource(deps, event.device.merchantId, { type: event.type, payload, createdAt: event.createdAt, deviceId: event.deviceId }, event.id);
  }
  return 0;
}

/** An event's payload as an object (a `json` column may come back as its text). */
function payloadOf(payload: unknown): Record<string, unknown> {
  const value = typeof payload === 'string' ? (JSON.parse(payload) as unknown) : payload;
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/**
 * An event to every chat that takes its type, of every user of the event's merchant (a user sees
 * every project of its merchant: docs/dashboard.md "Users and roles"): rendered once, then one
 * message job per chat (and for a decision, its prompt and buttons, per chat: each chat's presses
 * act as its own user), all in one transaction. With the event's id, each chat is told once however
 * often this runs (`chat_notices`). Returns how many were queued.
 */
export async function fanOutSource(deps: Deps, merchantId: string, source: NoticeSource, sourceId?: string): Promise<number> {
  const links = await linksTaking(deps.prisma, merchantId, source.type);
  if (links.length === 0) return 0;
  const rendered = await renderNotice(deps, source);
  if (!rendered) return 0;
  return deps.prisma.$transaction(async (tx) => {
    let queued = 0;
    for (const link of links) {
      if (sourceId && (await tx.chatNotice.createMany({ data: [{ sourceId, linkId: link.id }], skipDuplicates: true })).count === 0) continue;
      const promptId = rendered.prompt ? await createPrompt(tx, link.id, { ...rendered.prompt, text: rendered.text }) : undefined;
      await queueChatMessage(tx, deps.jobs, { linkId: link.id, text: rendered.text, ...(promptId ? { promptId } : {}) });
      queued++;
    }
    return queued;
  });
}
