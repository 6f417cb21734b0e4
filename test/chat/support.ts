import { expect } from 'vitest';
import type { TestApp } from '../support/harness.js';
import type { BotApiStandIn } from '../support/bot-api.js';
import { gqlOkAs } from '../users/support.js';

export const TG = '111:telegram-test-token';
export const BALE = '222:bale-test-token';

export const CREATE_CODE = `mutation($p: ChatPlatform!) { createChatLinkCode(platform: $p) { code deepLink expiresAt } }`;
export const MY_LINKS = `{ viewer { user { id chatLinks { id platform chatTitle events createdAt } } } }`;

/** A chat linked to a signed-in user: a code from the dashboard, `/start CODE` to the bot, the bot's Persian answer. */
export async function linkChat(app: TestApp, bot: BotApiStandIn, cookie: string, chat: { id: number; group?: string }, token = TG) {
  const { createChatLinkCode } = await gqlOkAs(app, cookie, CREATE_CODE, { p: token === TG ? 'TELEGRAM' : 'BALE' });
  const before = bot.messagesTo(token, chat.id).length;
  bot.userSends(token, chat, chat.group ? `/start@${token === TG ? 'gw_test_bot' : 'gw_bale_bot'} ${createChatLinkCode.code}` : `/start ${createChatLinkCode.code}`);
  const reply = await bot.message(token, chat.id, before + 1);
  expect(reply.text).toContain('وصل شد');
  const links = (await gqlOkAs(app, cookie, MY_LINKS)).viewer.user.chatLinks as { id: string; chatTitle: string; events: string[] }[];
  return { code: createChatLinkCode.code as string, link: links.at(-1)!, reply };
}

/** The next message to a chat after the `seen` it had, with `text` in it. */
export function messageWith(bot: BotApiStandIn, chatId: number, text: string, token = TG, timeoutMs?: number) {
  return bot.waitFor(`a message to ${chatId} with "${text}"`, () => bot.messagesTo(token, chatId).find((m) => m.text.includes(text)), timeoutMs);
}

/** The buttons of a message: `[label, callback_data]`. */
export function buttonsOf(message: { reply_markup?: any }): { text: string; data: string }[] {
  return (message.reply_markup?.inline_keyboard ?? []).flat().map((b: any) => ({ text: b.text, data: b.callback_data }));
}
