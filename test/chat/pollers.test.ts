import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotApiStandIn } from '../support/bot-api.js';
import { createTestDatabase, makeMerchant, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { spawnTs, waitFor, type Spawned } from '../support/process.js';
import { addSignedInUser, gqlOkAs, USERS_ENV } from '../users/support.js';
import { CREATE_CODE, TG } from './support.js';

// One long poller per bot across worker processes (docs/operations.md "Chat bots (Telegram and
// Bale)"): a real worker process and this test's own service (role all: a second worker, and the API
// the dashboard calls) against one database and one Bot API stand-in. Only the lease holder polls;
// when the worker process is killed (SIGKILL: no clean stop, its lease just stops being renewed) the
// other takes the bot over. CHAT_POLL_LEASE_SECONDS is 2 here instead of 20, so the takeover takes
// seconds.

let databaseUrl: string;
let bot: BotApiStandIn;
let api: TestApp;
let worker: Spawned;

beforeAll(async () => {
  bot = await new BotApiStandIn().addBot(TG, 'gw_test_bot').start();
  databaseUrl = await createTestDatabase();
  const chat = { TELEGRAM_BOT_TOKEN: TG, TELEGRAM_API_ROOT: bot.url, CHAT_POLL_LEASE_SECONDS: '2' };
  worker = spawnTs('src/main.ts', ['--role', 'worker'], testEnv(databaseUrl, chat));
  await waitFor(() => worker.stdout().includes('worker running'), 60_000, 'the worker process');
  await waitFor(() => bot.openPolls(TG) === 1, 20_000, 'its poll');
  // Started second, so the worker process holds the lease and this one waits.
  api = await startTestApp({ role: 'all', databaseUrl, env: { ...USERS_ENV, ...chat } });
}, 90_000);

afterAll(async () => {
  worker?.child.kill('SIGKILL');
  await api?.stop();
  await bot?.stop();
});

const lease = () => api.deps.prisma.chatPoller.findUnique({ where: { platform: 'TELEGRAM' } });
const pidOf = (holder: string) => Number(holder.split(':')[1]);

describe('two worker processes', { timeout: 60_000 }, () => {
  it('only the lease holder polls; killed, the other takes the bot over and links the next chat; a clean stop gives the lease back', async () => {
    const first = (await lease())!;
    expect(pidOf(first.holder)).toBe(worker.child.pid);

    // Through several lease periods, never two polls at once, and the lease stays where it is.
    for (const until = Date.now() + 2_000; Date.now() < until; ) {
      expect(bot.openPolls(TG)).toBeLessThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await lease())!.holder).toBe(first.holder);

    const merchant = await makeMerchant(api);
    const owner = await addSignedInUser(api, merchant.merchantId, 'owner');
    const { createChatLinkCode } = await gqlOkAs(api, owner.cookie, CREATE_CODE, { p: 'TELEGRAM' });
    expect(createChatLinkCode.deepLink).toBe(`https://t.me/gw_test_bot?start=${createChatLinkCode.code}`);

    worker.child.kill('SIGKILL');
    await worker.exit;
    const killedAt = Date.now();
    bot.userSends(TG, { id: 4242 }, `/start ${createChatLinkCode.code}`);
    const reply = await bot.message(TG, 4242, 1, 30_000);
    expect(reply.text).toContain('وصل شد');
    // Within 30 s (docs/operations.md "Chat bots"; the lease is 2 s here).
    expect(reply.at - killedAt).toBeLessThan(30_000);
    const now = (await lease())!;
    expect(pidOf(now.holder)).toBe(process.pid);
    expect(await api.deps.prisma.chatLink.count({ where: { chatId: 4242n } })).toBe(1);

    // A clean stop gives the lease back at once (another worker need not wait for it to lapse).
    const direct = new pg.Client({ connectionString: databaseUrl });
    await direct.connect();
    await api.stop();
    const released = (await direct.query<{ expires_at: Date }>(`SELECT expires_at FROM chat_pollers WHERE platform = 'TELEGRAM'`)).rows[0]!;
    await direct.end();
    expect(released.expires_at.getTime()).toBeLessThan(Date.now());
    expect(bot.openPolls(TG)).toBe(0);
  });
});
