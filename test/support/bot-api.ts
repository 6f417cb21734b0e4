import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Telegram Bot API (and Bale's, which follows it): a real HTTP server at
 * `{url}/bot{token}/{method}` speaking the Bot API's JSON (`{ok, result}` / `{ok: false,
 * error_code, description, parameters}`). It keeps one bot per token: the updates a test makes
 * (`userSends`, `press`) for `getUpdates` (a real long poll: held until an update arrives or its
 * `timeout` passes, offsets confirming earlier updates), and every `sendMessage`, `editMessageText`
 * and `answerCallbackQuery` it was sent. `failNext` makes the next calls of a method (to a chat)
 * answer an error: 429 with `retry_after`, 403 "bot was blocked by the user".
 */
export type Call = { at: number; token: string; method: string; body: any };
export type SentMessage = { message_id: number; chatId: number; text: string; reply_markup?: any; at: number; edits: { text: string; at: number }[] };
type Failure = { method: string; chatId?: number; code: 403 | 429 | 400 | 500; retryAfter?: number; times: number };
type Waiter = { offset: number; done: (updates: any[]) => void };

class BotState {
  updates: any[] = [];
  nextUpdateId = 1;
  nextMessageId = 100;
  messages: SentMessage[] = [];
  answers: { callback_query_id: string; text?: string; at: number }[] = [];
  waiters: Waiter[] = [];
  /** getUpdates calls held open right now. */
  openPolls = 0;
  constructor(readonly username: string) {}
}

export class BotApiStandIn {
  url = '';
  readonly calls: Call[] = [];
  private server!: Server;
  private readonly bots = new Map<string, BotState>();
  private failures: Failure[] = [];
  private nextCallbackId = 1;

  /** A bot this stand-in answers for; unknown tokens get 401 Unauthorized, as the real API does. */
  addBot(token: string, username: string): this {
    this.bots.set(token, new BotState(username));
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.route(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const bot of this.bots.values()) for (const w of bot.waiters.splice(0)) w.done([]);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private bot(token: string): BotState {
    const bot = this.bots.get(token);
    if (!bot) throw new Error(`no bot ${token}`);
    return bot;
  }

  /** The next `times` calls of `method` (to `chatId`, if given) answer this error. */
  failNext(method: string, failure: { code: 403 | 429 | 400 | 500; retryAfter?: number; chatId?: number; times?: number }): void {
    this.failures.push({ method, code: failure.code, retryAfter: failure.retryAfter, chatId: failure.chatId, times: failure.times ?? 1 });
  }

  // --- what a person does in the messenger -------------------------------------------------

  /** A text message from a person (a private chat, or a group with `group`). */
  userSends(token: string, chat: { id: number; name?: string; group?: string }, text: string): void {
    const bot = this.bot(token);
    const from = { id: Math.abs(chat.id) + 7, is_bot: false, first_name: chat.name ?? 'Person' };
    const entities = text.startsWith('/') ? [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }] : undefined;
    const chatObject = chat.group ? { id: chat.id, type: 'group', title: chat.group } : { id: chat.id, type: 'private', first_name: chat.name ?? 'Person' };
    this.push(bot, { message: { message_id: bot.nextMessageId++, date: Math.floor(Date.now() / 1000), chat: chatObject, from, text, ...(entities ? { entities } : {}) } });
  }

  /** A press of an inline button (`data` is its callback_data) under a message the bot sent. Returns the callback query id. */
  press(token: string, message: SentMessage, data: string): string {
    const bot = this.bot(token);
    const id = `cb${this.nextCallbackId++}`;
    const chat = { id: message.chatId, type: message.chatId < 0 ? 'group' : 'private', ...(message.chatId < 0 ? { title: 'Group' } : { first_name: 'Person' }) };
    const current = message.edits.at(-1)?.text ?? message.text;
    this.push(bot, {
      callback_query: {
        id,
        from: { id: Math.abs(message.chatId) + 7, is_bot: false, first_name: 'Person' },
        chat_instance: String(message.chatId),
        data,
        message: { message_id: message.message_id, date: Math.floor(message.at / 1000), chat, text: current },
      },
    });
    return id;
  }

  /** The bot was removed from a group, or blocked in a private chat (a `my_chat_member` update). */
  botRemoved(token: string, chatId: number): void {
    const bot = this.bot(token);
    const chat = chatId < 0 ? { id: chatId, type: 'group', title: 'Group' } : { id: chatId, type: 'private', first_name: 'Person' };
    const me = { id: 1, is_bot: true, first_name: 'Bot', username: bot.username };
    this.push(bot, {
      my_chat_member: {
        chat,
        from: { id: Math.abs(chatId) + 7, is_bot: false, first_name: 'Person' },
        date: Math.floor(Date.now() / 1000),
        old_chat_member: { status: 'member', user: me },
        new_chat_member: { status: chatId < 0 ? 'left' : 'kicked', user: me, until_date: 0 },
      },
    });
  }

  private push(bot: BotState, update: Record<string, unknown>): void {
    bot.updates.push({ update_id: bot.nextUpdateId++, ...update });
    for (const w of bot.waiters.splice(0)) w.done(bot.updates.filter((u) => u.update_id >= w.offset));
  }

  // --- what the test reads -----------------------------------------------------------------

  messagesTo(token: string, chatId: number): SentMessage[] {
    return this.bot(token).messages.filter((m) => m.chatId === chatId);
  }

  answers(token: string) {
    return this.bot(token).answers;
  }

  openPolls(token: string): number {
    return this.bot(token).openPolls;
  }

  /** Unconfirmed updates (those no getUpdates has confirmed with a later offset yet). */
  pending(token: string): number {
    return this.bot(token).updates.length;
  }

  async waitFor<T>(what: string, check: () => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > until) throw new Error(`bot API stand-in: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** The `n`th (1-based) message to a chat, once it is sent. */
  message(token: string, chatId: number, n = 1, timeoutMs?: number): Promise<SentMessage> {
    return this.waitFor(`message ${n} to chat ${chatId}`, () => this.messagesTo(token, chatId)[n - 1], timeoutMs);
  }

  answer(token: string, callbackId: string, timeoutMs?: number) {
    return this.waitFor(`answer to ${callbackId}`, () => this.bot(token).answers.find((a) => a.callback_query_id === callbackId), timeoutMs);
  }

  // --- the Bot API -------------------------------------------------------------------------

  private route(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)/.exec(req.url ?? '');
    const reply = (status: number, body: unknown) => {
      if (res.writableEnded) return;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const ok = (result: unknown) => reply(200, { ok: true, result });
    if (!match) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
    const [, token, method] = match as unknown as [string, string, string];
    const bot = this.bots.get(token);
    if (!bot) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    let body: any = {};
    try {
      body = raw ? JSON.parse(raw) : Object.fromEntries(new URL(req.url!, 'http://x').searchParams);
    } catch {
      return reply(400, { ok: false, error_code: 400, description: 'Bad Request: cannot parse JSON' });
    }
    this.calls.push({ at: Date.now(), token, method, body });
    const chatId = body.chat_id === undefined ? undefined : Number(body.chat_id);
    const failure = this.failures.find((f) => f.method === method && (f.chatId === undefined || f.chatId === chatId) && f.times > 0);
    if (failure) {
      failure.times--;
      if (failure.code === 429) return reply(429, { ok: false, error_code: 429, description: `Too Many Requests: retry after ${failure.retryAfter ?? 1}`, parameters: { retry_after: failure.retryAfter ?? 1 } });
      if (failure.code === 403) return reply(403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
      return reply(failure.code, { ok: false, error_code: failure.code, description: 'Bad Request: stand-in failure' });
    }
    switch (method) {
      case 'getMe':
        return ok({ id: 1, is_bot: true, first_name: 'Gateway bot', username: bot.username, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case 'getUpdates': {
        const offset = Number(body.offset ?? 0);
        // An offset confirms every update before it: they are gone for good.
        bot.updates = bot.updates.filter((u) => u.update_id >= offset);
        const ready = bot.updates;
        const timeout = Number(body.timeout ?? 0);
        if (ready.length || timeout <= 0) return ok(ready);
        bot.openPolls++;
        let settled = false;
        const done = (updates: any[]) => {
          if (settled) return;
          settled = true;
          bot.openPolls--;
          clearTimeout(timer);
          bot.waiters = bot.waiters.filter((w) => w !== waiter);
          ok(updates);
        };
        const waiter: Waiter = { offset, done };
        const timer = setTimeout(() => done([]), timeout * 1000);
        bot.waiters.push(waiter);
        // A poller that died (or aborted) leaves: its poll is no longer open.
        res.on('close', () => done([]));
        return;
      }
      case 'sendMessage': {
        const message: SentMessage = { message_id: bot.nextMessageId++, chatId: chatId!, text: String(body.text), reply_markup: body.reply_markup, at: Date.now(), edits: [] };
        bot.messages.push(message);
        return ok({ message_id: message.message_id, date: Math.floor(message.at / 1000), chat: { id: chatId, type: chatId! < 0 ? 'group' : 'private' }, text: message.text, reply_markup: body.reply_markup });
      }
      case 'editMessageText': {
        const message = bot.messages.find((m) => m.chatId === chatId && m.message_id === Number(body.message_id));
        if (!message) return reply(400, { ok: false, error_code: 400, description: 'Bad Request: message to edit not found' });
        message.edits.push({ text: String(body.text), at: Date.now() });
        message.reply_markup = body.reply_markup;
        return ok({ message_id: message.message_id, date: Math.floor(message.at / 1000), chat: { id: chatId, type: 'private' }, text: body.text });
      }
      case 'answerCallbackQuery':
        bot.answers.push({ callback_query_id: String(body.callback_query_id), text: body.text, at: Date.now() });
        return ok(true);
      default:
        return reply(404, { ok: false, error_code: 404, description: `Not Found: method ${method}` });
    }
  }
}
