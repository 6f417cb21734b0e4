import { createHash, randomInt } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { ChatLink } from '../../generated/prisma/client.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
import { botUsername, deepLink } from './bots.js';
import { CHAT_NOTIFICATIONS, type ChatPlatform } from './kinds.js';
import { spendLinkCode } from './store/links.js';

/** A code links a chat within 10 minutes of its making, once. */
export const LINK_CODE_TTL_MS = 10 * 60 * 1000;

// No 0/O, 1/I/L: a code may be typed by hand after /start.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 12;

export const hashLinkCode = (code: string) => createHash('sha256').update(code.trim().toUpperCase()).digest('hex');

export type LinkCode = { code: string; deepLink: string; expiresAt: Date };

/**
 * A one-time code for the signed-in user (any role: a viewer is told too, and cannot decide): shown
 * once with the bot's deep link; only its SHA-256 is stored. 10 minutes, one use.
 */
export async function createChatLinkCode(deps: Deps, actor: Actor, platform: ChatPlatform): Promise<LinkCode> {
  const user = requireActor(actor, 'user');
  if (user.kind !== 'user') throw new AppError('unauthorized');
  const username = await botUsername(deps, platform);
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  const expiresAt = new Date(Date.now() + LINK_CODE_TTL_MS);
  await deps.prisma.chatLinkCode.create({ data: { userId: user.userId, platform, codeHash: hashLinkCode(code), expiresAt } });
  return { code, deepLink: deepLink(platform, username, code), expiresAt };
}

function signedInUser(actor: Actor) {
  const user = requireActor(actor, 'user');
  if (user.kind !== 'user') throw new AppError('unauthorized');
  return user;
}

/** The signed-in user's links, oldest first. */
export function listChatLinks(deps: Deps, userId: string): Promise<ChatLink[]> {
  return deps.prisma.chatLink.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

const eventsSchema = z.object({
  events: z
    .array(z.enum(CHAT_NOTIFICATIONS, { error: `must be one of ${CHAT_NOTIFICATIONS.join(', ')}` }))
    .max(CHAT_NOTIFICATIONS.length)
    .transform((list) => [...new Set(list)]),
});

async function ownLink(deps: Deps, actor: Actor, id: string): Promise<ChatLink> {
  const user = signedInUser(actor);
  const link = uuidSchema.safeParse(id).success ? await deps.prisma.chatLink.findUnique({ where: { id } }) : null;
  if (!link || link.userId !== user.userId) throw AppError.notFound('Chat link');
  return link;
}

/** Which notifications a link of the signed-in user gets (an empty list: none, the link stays). */
export async function updateChatLink(deps: Deps, actor: Actor, id: string, input: unknown): Promise<ChatLink> {
  const { events } = parseInput(eventsSchema, input);
  const link = await ownLink(deps, actor, id);
  return deps.prisma.chatLink.update({ where: { id: link.id }, data: { events } });
}

/** Unlinks a chat of the signed-in user; returns the link as it was. */
export async function removeChatLink(deps: Deps, actor: Actor, id: string): Promise<ChatLink> {
  const link = await ownLink(deps, actor, id);
  await deps.prisma.chatLink.deleteMany({ where: { id: link.id } });
  return link;
}

export type Linked = { link: ChatLink; again: boolean };

/**
 * `/start CODE` from a chat: the code is spent (one use, before it expires, on its own platform) and
 * the chat linked to its user, in one transaction. Null for an unknown, used or expired code:
 * nothing is linked. A chat linked to the same user before keeps its link (events included).
 */
export async function linkChat(deps: Deps, platform: ChatPlatform, code: string, chat: { id: number; title: string }): Promise<Linked | null> {
  if (!/^[A-Za-z0-9]{4,64}$/.test(code.trim())) return null;
  return deps.prisma.$transaction(async (tx) => {
    const userId = await spendLinkCode(tx, hashLinkCode(code), platform);
    if (!userId) return null;
    const where = { platform_chatId_userId: { platform, chatId: BigInt(chat.id), userId } };
    const before = await tx.chatLink.findUnique({ where });
    const link = before
      ? await tx.chatLink.update({ where, data: { chatTitle: chat.title } })
      : await tx.chatLink.create({ data: { platform, chatId: BigInt(chat.id), userId, chatTitle: chat.title, events: [...CHAT_NOTIFICATIONS] } });
    return { link, again: before !== null };
  });
}

/** A chat that blocked the bot (or removed it from the group): every link of it goes. */
export async function unlinkChat(deps: Deps, platform: ChatPlatform, chatId: number | bigint): Promise<number> {
  const { count } = await deps.prisma.chatLink.deleteMany({ where: { platform, chatId: BigInt(chatId) } });
  return count;
}
