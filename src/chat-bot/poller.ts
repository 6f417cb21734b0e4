import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Bot, GrammyError, type Context } from 'grammy';
import type { Update } from 'grammy/types';
import type { Deps } from '../domain/deps.js';
import { botApi, configuredPlatforms } from '../domain/chat/bots.js';
import { PLATFORM_NAMES, type ChatPlatform } from '../domain/chat/kinds.js';
import { linkChat, unlinkChat } from '../domain/chat/links.js';
import { renewLease, takeLease } from '../domain/chat/store/lease.js';
import { pressButton } from './decisions.js';

export const REPLIES = {
  linked: (email: string, platform: ChatPlatform) =>
    `✅ این گفتگو به حساب ${email} در درگاه پرداخت وصل شد.\nاز این پس پرداخت‌های تأییدشده، واریزهای منتظر تصمیم و حال گوشی‌ها را اینجا در ${PLATFORM_NAMES[platform]} می‌فرستیم. برای انتخاب اعلان‌ها یا قطع اتصال به داشبورد بروید.`,
  relinked: (email: string) => `✅ این گفتگو از قبل به حساب ${email} وصل بود و همچنان وصل است.`,
  badCode: '❌ این کد معتبر نیست: یا اشتباه است، یا قبلاً به کار رفته، یا بیش از ده دقیقه از ساختنش گذشته است. از داشبورد، بخش «اعلان‌های پیام‌رسان»، یک کد تازه بسازید.',
  hello: 'سلام! برای وصل کردن این گفتگو به درگاه، در داشبورد به بخش «اعلان‌های پیام‌رسان» بروید، یک کد بسازید و همان پیوند را باز کنید (یا اینجا بنویسید: /start کد).',
} as const;

/** How long a getUpdates waits for an update: well inside the lease, so the holder renews it between polls. */
const pollTimeoutSeconds = (leaseSeconds: number) => Math.max(1, Math.min(25, Math.floor(leaseSeconds / 3)));

export type ChatBots = { stop: () => Promise<void> };

/** Every bot whose token is set, long-polled by whichever worker process holds its lease. */
export function startChatBots(deps: Deps): ChatBots | null {
  const platforms = configuredPlatforms(deps.config);
  if (platforms.length === 0) return null;
  const pollers = platforms.map((p) => new BotPoller(deps, p));
  for (const poller of pollers) poller.start();
  return { stop: async () => void (await Promise.all(pollers.map((p) => p.stop()))) };
}

/**
 * One bot's long poll (`getUpdates`), in the one worker process that holds its lease
 * (`chat_pollers`, one row per platform): renewed every third of CHAT_POLL_LEASE_SECONDS while held;
 * any other worker takes it once it lapses (its holder died), and polls on from the offset stored
 * with it. Updates arrive after the lease is renewed only, so a process that lost its lease mid-poll
 * handles nothing (the new holder asks for the same updates). Stopping aborts the poll and gives the
 * lease back at once.
 */
export class BotPoller {
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  private held = false;
  private bot: Bot | null = null;

  constructor(
    private readonly deps: Deps,
    readonly platform: ChatPlatform,
  ) {}

  private get leaseSeconds() {
    return this.deps.config.chatPollLeaseSeconds;
  }

  start(): void {
    this.running = this.loop();
    this.renewTimer = setInterval(() => {
      if (this.held) void this.renew().catch((err) => this.deps.log.warn({ err }, 'chat poller: lease renewal failed'));
    }, (this.leaseSeconds * 1000) / 3);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    if (this.renewTimer) clearInterval(this.renewTimer);
    await this.running;
    if (this.held) {
      this.held = false;
      await this.deps.prisma.chatPoller
        .updateMany({ where: { platform: this.platform, holder: this.holder }, data: { expiresAt: new Date(0) } })
        .catch((err) => this.deps.log.warn({ err }, 'chat poller: lease not given back'));
    }
  }

  /** Takes the lease if it is free or lapsed (or already ours); returns the update offset to poll from. */
  private async acquire(): Promise<bigint | null> {
    const offset = await takeLease(this.deps.prisma, this.platform, this.holder, this.leaseSeconds);
    this.held = offset !== null;
    return offset;
  }

  private async renew(): Promise<boolean> {
    this.held = await renewLease(this.deps.prisma, this.platform, this.holder, this.leaseSeconds);
    return this.held;
  }

  private async loop(): Promise<void> {
    const signal = this.abort.signal;
    const wait = (ms: number) => new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
    });
    while (!signal.aborted) {
      try {
        const offset = await this.acquire();
        if (offset === null) {
          await wait((this.leaseSeconds * 1000) / 4);
          continue;
        }
        const bot = await this.ready();
        const updates = await bot.api.getUpdates(
          { offset: Number(offset), timeout: pollTimeoutSeconds(this.leaseSeconds), allowed_updates: ['message', 'callback_query', 'my_chat_member'] },
          grammySignal(signal),
        );
        if (signal.aborted || !(await this.renew())) continue;
        for (const update of updates) {
          await this.handle(bot, update);
          await this.deps.prisma.chatPoller.updateMany({ where: { platform: this.platform, holder: this.holder }, data: { updateOffset: BigInt(update.update_id + 1) } });
        }
      } catch (err) {
        if (signal.aborted) break;
        // A token the Bot API does not know (401, 404) will not start working in a second: a minute apart, logged as an error.
        const refused = err instanceof GrammyError && (err.error_code === 401 || err.error_code === 404);
        if (refused) this.deps.log.error({ err, platform: this.platform }, `chat poller: the Bot API refuses ${this.platform}_BOT_TOKEN; trying again in a minute`);
        else this.deps.log.warn({ err, platform: this.platform }, 'chat poller: poll failed; trying again');
        await wait(refused ? 60_000 : err instanceof GrammyError && err.error_code === 429 ? Number(err.parameters.retry_after ?? 1) * 1000 : 1000);
      }
    }
  }

  /** grammY's Bot, initialised (getMe) once; its username recorded for the dashboard's deep links. */
  private async ready(): Promise<Bot> {
    if (this.bot) return this.bot;
    const bot = new Bot(this.deps.config.chatBots[this.platform]!.token, { client: { apiRoot: this.deps.config.chatBots[this.platform]!.apiRoot } });
    // Sends and edits share the process's client (bots.ts); the poll has this bot's.
    void botApi(this.deps.config, this.platform);
    await bot.init(grammySignal(this.abort.signal));
    await this.deps.prisma.chatPoller.updateMany({ where: { platform: this.platform }, data: { botUsername: bot.botInfo.username } });
    this.route(bot);
    this.bot = bot;
    return bot;
  }

  private route(bot: Bot): void {
    const platform = this.platform;
    const deps = this.deps;
    bot.command('start', async (ctx) => {
      const code = ctx.match.trim();
      if (!code) return void (await ctx.reply(REPLIES.hello));
      const linked = await linkChat(deps, platform, code, { id: ctx.chat.id, title: chatTitle(ctx) });
      if (!linked) return void (await ctx.reply(REPLIES.badCode));
      const user = await deps.prisma.user.findUnique({ where: { id: linked.link.userId }, select: { email: true } });
      deps.log.info({ platform, chatId: ctx.chat.id, userId: linked.link.userId }, 'chat linked');
      await ctx.reply(linked.again ? REPLIES.relinked(user?.email ?? '') : REPLIES.linked(user?.email ?? '', platform));
    });
    bot.on('callback_query:data', async (ctx) => {
      const chatId = ctx.callbackQuery.message?.chat.id;
      const answer = chatId === undefined ? { answer: 'این دکمه دیگر معتبر نیست.', edit: null } : await pressButton(deps, platform, { token: ctx.callbackQuery.data, chatId });
      // A press answered too late (the Bot API forgets a query after a while) is still decided and shown.
      await ctx.answerCallbackQuery({ text: answer.answer }).catch((err) => deps.log.warn({ err }, 'chat: press not answered'));
      if (answer.edit && ctx.callbackQuery.message && ctx.callbackQuery.message.text !== answer.edit) {
        await ctx.editMessageText(answer.edit, { link_preview_options: { is_disabled: true } }).catch((err) => deps.log.warn({ err }, 'chat: message not edited'));
      }
    });
    bot.on('my_chat_member', async (ctx) => {
      const status = ctx.myChatMember.new_chat_member.status;
      if (status === 'kicked' || status === 'left') await unlinkChat(deps, platform, ctx.chat.id);
    });
  }

  private async handle(bot: Bot, update: Update): Promise<void> {
    try {
      await bot.handleUpdate(update);
    } catch (err) {
      // One update's failure (a Bot API error answering it) must not stop the others.
      this.deps.log.warn({ err, platform: this.platform, updateId: update.update_id }, 'chat poller: update not handled');
    }
  }
}

/** grammY's Node typings name the abort-controller package's AbortSignal; Node's own is what it is given at run time. */
type GrammySignal = Parameters<Bot['init']>[0];
const grammySignal = (signal: AbortSignal) => signal as unknown as GrammySignal;

function chatTitle(ctx: Context): string {
  const chat = ctx.chat!;
  if (chat.type === 'private') return [chat.first_name, chat.last_name].filter(Boolean).join(' ') || (chat.username ? `@${chat.username}` : String(chat.id));
  return chat.title;
}
