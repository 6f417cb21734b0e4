import { randomBytes } from 'node:crypto';
import { GrammyError, type Api } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';
import type { Tx } from '../../db/prisma.js';
import type { JobQueue } from '../../queue/job-queue.js';
import type { JobData } from '../../queue/job-types.js';
import type { Deps } from '../deps.js';
import { botApi } from './bots.js';
import type { ChatPlatform } from './kinds.js';
import { unlinkChat } from './links.js';
import type { ButtonSpec } from './render.js';
import { heldFor, holdSlot, reserveSlot } from './store/slots.js';

/** At most one message a second to a chat, and 25 a second from a bot (the Bot API's limits). */
export const CHAT_SPACING_MS = 1_000;
export const BOT_SPACING_MS = 40;
/** A message is tried this many times; then it is dropped (logged). */
export const MAX_TRIES = 10;
// A slot further off than this is waited for in a later job rather than by a worker sleeping.
const MAX_SLEEP_MS = 3_000;

/** A decision button's callback_data: a random token, looked up server-side (never trusted as data). */
export const buttonToken = () => randomBytes(12).toString('base64url');

/** A message with decision buttons: the prompt that remembers them, for the presses and the edit. */
export async function createPrompt(tx: Tx, linkId: string, prompt: { subjectType: string; subjectId: string; text: string; buttons: ButtonSpec[] }): Promise<string> {
  const row = await tx.chatPrompt.create({ data: { linkId, subjectType: prompt.subjectType, subjectId: prompt.subjectId, text: prompt.text } });
  await tx.chatButton.createMany({
    data: prompt.buttons.map((b, position) => ({ token: buttonToken(), promptId: row.id, position, action: b.action, label: b.label, messageId: b.messageId ?? null, paymentId: b.paymentId ?? null, gapId: b.gapId ?? null })),
  });
  return row.id;
}

/** One message to one linked chat, queued in the caller's transaction. */
export function queueChatMessage(tx: Tx, jobs: JobQueue, message: { linkId: string; text: string; promptId?: string }) {
  return jobs.send('chat-send', { ...message, attempt: 1 }, { tx });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const chatKey = (platform: ChatPlatform, chatId: bigint | number) => `${platform}:${chatId}`;

export function keyboardOf(buttons: { token: string; label: string }[]): { inline_keyboard: InlineKeyboardButton[][] } {
  return { inline_keyboard: buttons.map((b) => [{ text: b.label, callback_data: b.token }]) };
}

/**
 * One try of a queued message (the chat-send job, jobs/chat.ts): the chat's and the bot's send slots, then
 * sendMessage. A 429 waits its `retry_after` (the chat's slot held that long), other failures back
 * off; MAX_TRIES in all. A 403 (the bot was blocked, or removed from the group) unlinks the chat.
 * A link removed meanwhile, or a bot no longer set up, sends nothing.
 */
export async function deliverChatMessage(deps: Deps, data: JobData<'chat-send'>): Promise<'sent' | 'retrying' | 'dropped' | 'unlinked'> {
  const link = await deps.prisma.chatLink.findUnique({ where: { id: data.linkId } });
  if (!link) return 'dropped';
  const platform = link.platform as ChatPlatform;
  const api = botApi(deps.config, platform);
  if (!api) return 'dropped';
  const chat = chatKey(platform, link.chatId);
  if (!data.slotReserved) {
    const wait = await reserveSlot(deps.prisma, chat, CHAT_SPACING_MS);
    if (wait > MAX_SLEEP_MS) {
      await deps.jobs.send('chat-send', { ...data, slotReserved: true }, { startAfter: new Date(Date.now() + wait) });
      return 'retrying';
    }
    if (wait > 0) await sleep(wait);
  }
  const botWait = await reserveSlot(deps.prisma, platform, BOT_SPACING_MS);
  if (botWait > 0) await sleep(Math.min(botWait, MAX_SLEEP_MS));
  // A 429 since this slot was reserved: its retry_after holds every message of the chat (or bot).
  const held = await heldFor(deps.prisma, [chat, platform]);
  if (held > 0) {
    await deps.jobs.send('chat-send', { linkId: data.linkId, text: data.text, promptId: data.promptId, attempt: data.attempt }, { startAfter: new Date(Date.now() + held) });
    return 'retrying';
  }
  const buttons = data.promptId ? await deps.prisma.chatButton.findMany({ where: { promptId: data.promptId }, orderBy: { position: 'asc' } }) : [];
  try {
    const sent = await send(api, link.chatId, data.text, buttons);
    if (data.promptId) await deps.prisma.chatPrompt.updateMany({ where: { id: data.promptId }, data: { messageId: BigInt(sent.message_id) } });
    return 'sent';
  } catch (err) {
    if (err instanceof GrammyError && err.error_code === 403) {
      const removed = await unlinkChat(deps, platform, link.chatId);
      deps.log.info({ platform, chatId: String(link.chatId), removed }, 'chat blocked the bot: unlinked');
      return 'unlinked';
    }
    if (data.attempt >= MAX_TRIES) {
      deps.log.warn({ err, linkId: link.id, attempt: data.attempt }, 'chat message: last try failed, dropped');
      return 'dropped';
    }
    let delayMs = Math.min(300_000, 2_000 * 2 ** (data.attempt - 1));
    if (err instanceof GrammyError && err.error_code === 429) {
      const retryAfter = Number(err.parameters.retry_after ?? 1);
      delayMs = Math.max(1, retryAfter) * 1000;
      await holdSlot(deps.prisma, chat, delayMs);
    }
    deps.log.info({ err: err instanceof Error ? err.message : String(err), linkId: link.id, attempt: data.attempt, delayMs }, 'chat message: trying again later');
    await deps.jobs.send('chat-send', { linkId: data.linkId, text: data.text, promptId: data.promptId, attempt: data.attempt + 1 }, { startAfter: new Date(Date.now() + delayMs) });
    return 'retrying';
  }
}

// Buttons in the order they were made: the prompt's (one per row).
function send(api: Api, chatId: bigint, text: string, buttons: { token: string; label: string }[]) {
  return api.sendMessage(Number(chatId), text, {
    link_preview_options: { is_disabled: true },
    ...(buttons.length ? { reply_markup: keyboardOf(buttons) } : {}),
  });
}
