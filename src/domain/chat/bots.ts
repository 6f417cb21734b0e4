import { Api } from 'grammy';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Deps } from '../deps.js';
import type { ChatPlatform } from './kinds.js';

/**
 * The Bot API clients (grammY's `Api`, with the configured API root: Bale's Bot API follows
 * Telegram's, at `{root}/bot{token}/{method}`), one per platform whose token is set. Cached per
 * token and root, so every process talks to a bot through one client.
 */
const clients = new Map<string, Api>();

export function botApi(config: Config, platform: ChatPlatform): Api | null {
  const bot = config.chatBots[platform];
  if (!bot) return null;
  const key = `${bot.apiRoot}\n${bot.token}`;
  let api = clients.get(key);
  if (!api) {
    // A long poll holds its request open for its timeout; every other call is answered at once.
    api = new Api(bot.token, { apiRoot: bot.apiRoot, timeoutSeconds: 60 });
    clients.set(key, api);
  }
  return api;
}

export function configuredPlatforms(config: Config): ChatPlatform[] {
  return (Object.keys(config.chatBots) as ChatPlatform[]).filter((p) => config.chatBots[p]);
}

const usernames = new Map<string, string>();

/**
 * The bot's username, for its deep link: what its poller recorded (`chat_pollers.bot_username`),
 * else asked of the Bot API (`getMe`) once per process.
 */
export async function botUsername(deps: Deps, platform: ChatPlatform): Promise<string> {
  const api = botApi(deps.config, platform);
  if (!api) throw new AppError('invalid_state', `No ${platform === 'TELEGRAM' ? 'Telegram' : 'Bale'} bot is set up on this gateway (${platform}_BOT_TOKEN).`, { platform });
  const key = `${platform}\n${deps.config.chatBots[platform]!.token}`;
  const known = usernames.get(key);
  if (known) return known;
  const row = await deps.prisma.chatPoller.findUnique({ where: { platform } });
  let name = row?.botUsername ?? null;
  if (!name) {
    try {
      name = (await api.getMe()).username;
    } catch (err) {
      deps.log.warn({ err, platform }, 'chat bot: getMe failed');
      throw new AppError('unavailable', 'The chat bot cannot be reached now; try again in a minute.', { platform });
    }
  }
  usernames.set(key, name);
  return name;
}

/** `https://t.me/<bot>?start=<code>` (Telegram) or `https://ble.ir/<bot>?start=<code>` (Bale). */
export function deepLink(platform: ChatPlatform, username: string, code: string): string {
  const host = platform === 'TELEGRAM' ? 'https://t.me' : 'https://ble.ir';
  return `${host}/${encodeURIComponent(username)}?start=${encodeURIComponent(code)}`;
}
