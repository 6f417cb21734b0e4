import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { createPaymentRest, makeMerchant, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { axeViolations, expectNoHorizontalScroll, inviteOwner, openLoaded, requireBuiltDashboard, setPasswordByLink, signInWithForm } from '../dashboard/support.js';

// Issue 37 in the dashboard, in Chromium at phone size: the devices page shows a phone's health,
// and the review queue lists a balance gap with its candidate; giving the gap's money to it takes a
// second look naming the amount, then confirms the payment.
const PASSWORD = 'a-long-dashboard-password';
const PHONE = { width: 360, height: 740 };
const ACCOUNT = '1234567890';
const MINUTE = 60_000;

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  requireBuiltDashboard();
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('phone health and lost messages in the dashboard', () => {
  it('the devices page shows health and battery; the review queue resolves a gap to its candidate after a second look', async () => {
    const merchant = await makeMerchant(app, { name: 'فروشگاه شکاف', credit: 1_000_000 });
    const shop = await makeShop(app, { merchantKey: merchant.merchantKey, sandbox: false, card: { accountNumber: ACCOUNT } });
    const token = shop.deviceToken!;
    await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token, body: { battery: 12, charging: false, network: 'wifi' } });
    await app.deps.prisma.device.update({ where: { id: shop.deviceId }, data: { health: 'low_battery' } });
    const lost = (await createPaymentRest(app, shop.apiKey, { amount: 511_000 })).body;
    const next = (await createPaymentRest(app, shop.apiKey, { amount: 512_000 })).body;
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const sms = (amount: bigint | string, balance: bigint, at: number) => ({ sender: 'BankMellat', body: mellatDeposit({ account: ACCOUNT, amount, balance, at: new Date(at) }), receivedAt: new Date().toISOString() });
    await request(app.baseUrl, 'POST', '/v1/device/messages', { token, body: sms(55_000n, 8_000_000n, now - 3 * MINUTE) });
    const held = await request(app.baseUrl, 'POST', '/v1/device/messages', { token, body: sms(next.amountFinal, 8_000_000n + BigInt(lost.amountFinal) + BigInt(next.amountFinal), now) });
    expect(held.body.status).toBe('needs_review');

    const owner = await inviteOwner(app, merchant.merchantId);
    await setPasswordByLink(app, owner.setPasswordPath, PASSWORD);
    const context = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
    const page = await context.newPage();
    await signInWithForm(page, app, owner.email, PASSWORD);

    await openLoaded(page, app, '/dashboard/devices');
    const phone = page.locator(`li[data-device-id="${shop.deviceId}"]`);
    expect(await phone.locator('[data-health]').getAttribute('data-health')).toBe('low_battery');
    expect(await phone.textContent()).toContain('۱۲٪');
    await expectNoHorizontalScroll(page, PHONE.width);
    expect(await axeViolations(page)).toEqual([]);

    await openLoaded(page, app, '/dashboard/review');
    const gap = page.locator('#review-gaps li[data-gap-id]');
    await gap.first().waitFor();
    const candidate = gap.locator(`[data-gap-candidate-payment-id="${lost.id}"]`);
    await candidate.getByRole('button', { name: 'این پول همین پرداخت است' }).click();
    const ask = gap.locator('[data-confirm-step]');
    expect(await ask.textContent()).toContain('۵۱٬');
    await ask.getByRole('button', { name: 'بله، تأیید شود' }).click();
    await gap.getByRole('status').filter({ hasText: 'پرداخت با این پول تأیید شد.' }).waitFor();
    // The queue refetches its open gaps after the decision (none is left); the answer stays where the merchant acted.
    await page.getByRole('heading', { name: 'پیامک‌های گم‌شده (شکاف موجودی) (۰)' }).waitFor();
    expect(await gap.getByRole('status').textContent()).toBe('پرداخت با این پول تأیید شد.');
    expect(await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: lost.id } })).toMatchObject({ status: 'confirmed', confirmationSource: 'manual' });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
