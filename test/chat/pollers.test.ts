import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotApiStandIn } from '../support/bot-api.js';
import { createTestDatabase, makeMerchant, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { spawnTs, waitFor, type Spawned } from '../support/process.js';
import { addSignedInUser, gqlOkAs, USERS_ENV } from '../users/support.js';
import { CREATE_CODE, TG } from './support.js';

// One long poller per bot across worker processes (docs/notifications.md "Running the bots"): two
// real worker processes against one database and one Bot API stand-in; only the lease holder polls,
// and when it is killed (SIGKILL: no clean stop, its lease just stops being renewed) the other takes
// the bot over. CHAT_POLL_LEASE_SECONDS is 2 here instead of 20, so the takeover takes seconds.

let databaseUrl: string;
let bot: BotApiStandIn;
let api: TestApp;
const workers: Spawned[] = [];

beforeAll(async () => {
  bot = await new BotApiStandIn().addBot(TG, 'gw_test_bot').start();
  databaseUrl = await createTestDatabase();
  const env = testEnv(databaseUrl, { TELEGRAM_BOT_TOKEN: TG, TELEGRAM_API_ROOT: bot.url, CHAT_POLL_LEASE_SECONDS: '2' });
  for (let i = 0; i < 2; i++) workers.push(spawnTs('src/main.ts', ['--role', 'worker'], env));
  // The API process (no worker of its own: it never polls) serves the dashboard's createChatLinkCode.
  api = await startTestApp({ role: 'api', databaseUrl, env: { ...USERS_ENV, TELEGRAM_BOT_TOKEN: TG, TELEGRAM_API_ROOT: bot.url } });
  await waitFor(() => workers.every((w) => w.stdout().includes('worker running')), 60_000, 'both workers');
}, 90_000);

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await api?.stop();
  await bot?.stop();
});

const lease = () => api.deps.prisma.chatPoller.findUnique({ where: { platform: 'TELEGRAM' } });
const pidOf = (holder: string) => Number(holder.split(':')[1]);

describe('two worker processes', { timeout: 60_000 }, () => {
  it('only the lease holder polls; killed, the other takes the bot over and links the next chat; a clean stop gives the lease back', async () => {
    await waitFor(() => bot.openPolls(TG) === 1, 20_000, 'a poll open');
    const first = (await lease())!;
    const holder = workers.find((w) => w.child.pid === pidOf(first.holder))!;
    const other = workers.find((w) => w !== holder)!;
    expect(holder, `the holder ${first.holder} is one of the workers`).toBeDefined();

    // Through several lease periods, never two polls at once, and the lease stays where it is.
    for (const until = Date.now() + 3_000; Date.now() < until; ) {
      expect(bot.openPolls(TG)).toBeLessThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await lease())!.holder).toBe(first.holder);

    const merchant = await makeMerchant(api);
    const owner = await addSignedInUser(api, merchant.merchantId, 'owner');
    const { createChatLinkCode } = await gqlOkAs(api, owner.cookie, CREATE_CODE, { p: 'TELEGRAM' });
    expect(createChatLinkCode.deepLink).toBe(`https://t.me/gw_test_bot?start=${createChatLinkCode.code}`);

    holder.child.kill('SIGKILL');
    await holder.exit;
    const killedAt = Date.now();
    bot.userSends(TG, { id: 4242 }, `/start ${createChatLinkCode.code}`);
    const reply = await bot.message(TG, 4242, 1, 30_000);
    expect(reply.text).toContain('وصل شد');
    // Within 30 s (docs/operations.md "Chat bots"; the lease is 2 s here).
    expect(reply.at - killedAt).toBeLessThan(30_000);
    const now = (await lease())!;
    expect(pidOf(now.holder)).toBe(other.child.pid);
    expect(await api.deps.prisma.chatLink.count({ where: { chatId: 4242n } })).toBe(1);

    other.child.kill('SIGTERM');
    expect(await other.exit).toBe(0);
    const released = (await lease())!;
    expect(released.expiresAt.getTime()).toBeLessThan(Date.now());
    expect(bot.openPolls(TG)).toBe(0);
  });
});
