import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { BotApiStandIn } from '../support/bot-api.js';
import { makeMerchant, startTestApp, type TestApp } from '../support/harness.js';
import { axeViolations, expectNoHorizontalScroll, openLoaded, requireBuiltDashboard, signInWithForm } from '../dashboard/support.js';
import { addSignedInUser, USERS_ENV, type SignedIn } from '../users/support.js';
import { BALE, TG } from './support.js';

// The dashboard's chat page (/dashboard/chat, docs/notifications.md "Linking a chat"), in Chromium
// at 360×740: a code with its deep link and QR code, the chat linked by /start CODE to the Bot API
// stand-in, its events chosen and saved, and unlinked.

const PHONE = { width: 360, height: 740 };
let app: TestApp;
let bot: BotApiStandIn;
let browser: Browser;
let owner: SignedIn;

beforeAll(async () => {
  requireBuiltDashboard();
  bot = await new BotApiStandIn().addBot(TG, 'gw_test_bot').addBot(BALE, 'gw_bale_bot').start();
  [app, browser] = await Promise.all([
    startTestApp({ env: { ...USERS_ENV, TELEGRAM_BOT_TOKEN: TG, TELEGRAM_API_ROOT: bot.url, BALE_BOT_TOKEN: BALE, BALE_API_ROOT: bot.url } }),
    launchChromium(),
  ]);
  const merchant = await makeMerchant(app);
  owner = await addSignedInUser(app, merchant.merchantId, 'owner');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await bot?.stop();
});

describe('the chat page', { timeout: 60_000 }, () => {
  it('makes a code with its deep link and QR code; the linked chat appears, its events are saved, and it is unlinked', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signInWithForm(page, app, owner.email, owner.password, '/dashboard/chat');
    await openLoaded(page, app, '/dashboard/chat');
    await expectNoHorizontalScroll(page, PHONE.width);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'ساخت کد برای تلگرام' }).click();
    const codeEl = page.locator('[data-platform="TELEGRAM"] [data-chat-code]');
    await codeEl.waitFor();
    const code = (await codeEl.getAttribute('data-chat-code'))!;
    await expect.poll(() => page.getByRole('link', { name: `https://t.me/gw_test_bot?start=${code}` }).count()).toBe(1);
    await page.locator('#chat-qr-TELEGRAM').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    bot.userSends(TG, { id: 9901, name: 'Shop owner' }, `/start ${code}`);
    expect((await bot.message(TG, 9901)).text).toContain('وصل شد');
    await page.getByRole('button', { name: 'به‌روزرسانی' }).click();
    const item = page.locator('[data-platform="TELEGRAM"][data-chat-link-id]');
    await item.waitFor();
    expect(await item.getByText('Shop owner').count()).toBe(1);

    await item.getByLabel('خلاصهٔ روز، ساعت ۲۳ به وقت تهران').uncheck();
    await item.getByRole('button', { name: 'ذخیره' }).click();
    await item.getByText('ذخیره شد.').waitFor();
    const link = await app.deps.prisma.chatLink.findFirstOrThrow({ where: { chatId: 9901n } });
    expect(link.events).not.toContain('daily.summary');
    expect(link.events).toContain('payment.confirmed');
    await expectNoHorizontalScroll(page, PHONE.width);
    expect(await axeViolations(page)).toEqual([]);

    await item.getByRole('button', { name: 'قطع اتصال' }).click();
    await item.getByRole('button', { name: 'بله، قطع شود' }).click();
    await page.getByText('هنوز گفتگویی وصل نشده است.').waitFor();
    expect(await app.deps.prisma.chatLink.count({ where: { chatId: 9901n } })).toBe(0);
    await context.close();
  });
});
