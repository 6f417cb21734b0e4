import { createChatLinkCode, listChatLinks, removeChatLink, updateChatLink, type LinkCode } from '../../domain/chat/links.js';
import { configuredPlatforms } from '../../domain/chat/bots.js';
import { CHAT_NOTIFICATIONS, type ChatPlatform } from '../../domain/chat/kinds.js';
import type { ChatLink } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { UserRef } from './users.js';

// Chat notifications (docs/notifications.md): a dashboard user links Telegram and Bale chats.

const ChatPlatformEnum = builder.enumType('ChatPlatform', {
  description: 'A messenger whose bot the gateway runs.',
  values: {
    TELEGRAM: { description: 'Telegram (TELEGRAM_BOT_TOKEN).' },
    BALE: { description: 'Bale (BALE_BOT_TOKEN).' },
  } satisfies Record<ChatPlatform, { description: string }>,
});

const EVENTS_DESCRIPTION = `What the chat is told: ${CHAT_NOTIFICATIONS.join(', ')} (daily.summary: 23:00 Tehran). A new link gets all of them.`;

const ChatLinkRef = builder.objectRef<ChatLink>('ChatLink').implement({
  description: 'A Telegram or Bale chat (private or a group) linked to the signed-in user: it is told of the merchant’s events, and its buttons decide as that user.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The link UUID.' }),
    platform: t.field({ description: 'Telegram or Bale.', type: ChatPlatformEnum, resolve: (l) => l.platform as ChatPlatform }),
    chatTitle: t.exposeString('chatTitle', { description: 'The group’s title, or the person’s name for a private chat, when it was linked.' }),
    events: t.exposeStringList('events', { description: EVENTS_DESCRIPTION }),
    createdAt: t.expose('createdAt', { description: 'When the chat was linked.', type: 'DateTime' }),
  }),
});

const ChatLinkCodeRef = builder.objectRef<LinkCode>('ChatLinkCode').implement({
  description: 'A one-time code that links a chat: send /start CODE to the bot (or open deepLink). 10 minutes, one use; shown only now.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The code, for /start CODE.' }),
    deepLink: t.exposeString('deepLink', { description: 'https://t.me/<bot>?start=CODE (Telegram) or https://ble.ir/<bot>?start=CODE (Bale): opens the bot with the code.' }),
    expiresAt: t.expose('expiresAt', { description: 'When the code stops working.', type: 'DateTime' }),
  }),
});

const UpdateChatLinkInput = builder.inputType('UpdateChatLinkInput', {
  description: 'What a linked chat is told.',
  fields: (t) => ({ events: t.stringList({ description: `${EVENTS_DESCRIPTION} An empty list silences the chat.`, required: true }) }),
});

builder.objectField(UserRef, 'chatLinks', (t) =>
  t.field({
    description: 'The chats linked to this user, oldest first: the signed-in user’s own only (empty for any other user).',
    type: [ChatLinkRef],
    resolve: (u, _args, ctx) => (ctx.actor.kind === 'user' && ctx.actor.userId === u.id ? listChatLinks(ctx.deps, u.id) : []),
  }),
);

builder.queryFields((t) => ({
  chatPlatforms: t.field({
    description: 'The messengers whose bot this gateway runs (TELEGRAM_BOT_TOKEN, BALE_BOT_TOKEN): the ones createChatLinkCode takes. Dashboard session.',
    type: [ChatPlatformEnum],
    authScopes: { user: true },
    resolve: (_root, _args, ctx) => configuredPlatforms(ctx.deps.config),
  }),
}));

builder.mutationFields((t) => ({
  createChatLinkCode: t.field({
    description:
      'A one-time code (10 minutes, one use) that links a Telegram or Bale chat to the signed-in user, with the bot’s deep link. A platform whose bot is not set up: 409 invalid_state. Dashboard session.',
    type: ChatLinkCodeRef,
    authScopes: { user: true },
    args: { platform: t.arg({ description: 'Which messenger.', type: ChatPlatformEnum, required: true }) },
    resolve: (_root, { platform }, ctx) => createChatLinkCode(ctx.deps, ctx.actor, platform),
  }),
  updateChatLink: t.field({
    description: 'Chooses what a linked chat of the signed-in user is told. Dashboard session.',
    type: ChatLinkRef,
    authScopes: { user: true },
    args: {
      id: t.arg.id({ description: 'The link UUID.', required: true }),
      input: t.arg({ description: 'The events.', type: UpdateChatLinkInput, required: true }),
    },
    resolve: (_root, { id, input }, ctx) => updateChatLink(ctx.deps, ctx.actor, String(id), input),
  }),
  removeChatLink: t.field({
    description: 'Unlinks a chat of the signed-in user: it is told nothing more, and its buttons stop working. Returns the link as it was. Dashboard session.',
    type: ChatLinkRef,
    authScopes: { user: true },
    args: { id: t.arg.id({ description: 'The link UUID.', required: true }) },
    resolve: (_root, { id }, ctx) => removeChatLink(ctx.deps, ctx.actor, String(id)),
  }),
}));
