import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlOk, makeMerchant, makeShop, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';
import { axeViolations, expectNoHorizontalScroll, inviteOwner, openLoaded, requireBuiltDashboard, setPasswordByLink, signInWithForm } from './support.js';

// Issue 34: the cards page asks for the card's balance, with one sentence on why, and shows the
// balance chain's current reference (Card.lastKnownBalance), in Chromium at phone size.
const PASSWORD = 'a-long-dashboard-password';
const PHONE = { width: 360, height: 740 };

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

describe('the cards page: opening balance', () => {
  it('an owner enters the balance the bank’s app shows (toman, Persian digits); the card then shows it as its last known balance', async () => {
    const merchant = await makeMerchant(app, { name: 'فروشگاه موجودی' });
    const shop = await makeShop(app, { merchantKey: merchant.merchantKey, sandbox: false });
    const owner = await inviteOwner(app, merchant.merchantId);
    await setPasswordByLink(app, owner.setPasswordPath, PASSWORD);
    const context = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
    const page = await context.newPage();
    await signInWithForm(page, app, owner.email, PASSWORD);
    await openLoaded(page, app, '/dashboard/cards');

    const card = page.locator(`li[data-card-id="${shop.cardId}"]`);
    expect(await card.locator('[data-known-balance]').textContent()).toBe('هنوز ثبت نشده');
    const form = card.getByRole('form', { name: 'موجودی فعلی کارت' });
    const input = form.getByLabel('موجودی فعلی به تومان');
    // The why, read out with the field.
    expect(await input.getAttribute('aria-describedby')).toBe(`balance-help-${shop.cardId}`);
    expect(await page.locator(`#balance-help-${shop.cardId}`).textContent()).toContain('پیامک جعلی اول نمی‌تواند مرجع موجودی شود');
    await expectNoHorizontalScroll(page, PHONE.width);
    expect(await axeViolations(page)).toEqual([]);

    await input.fill('چهار');
    await form.getByRole('button', { name: 'ثبت موجودی' }).click();
    await form.getByRole('alert').filter({ hasText: 'موجودی را با رقم بنویسید.' }).waitFor();

    // 250,000 toman is 2,500,000 rials.
    await input.fill('۲۵۰٬۰۰۰');
    await form.getByRole('button', { name: 'ثبت موجودی' }).click();
    await form.getByRole('status').filter({ hasText: 'موجودی ثبت شد.' }).waitFor();
    const api = await gqlOk(app.baseUrl, `query($id: ID!) { node(id: $id) { ... on Card { lastKnownBalance lastKnownBalanceAt } } }`, { id: shop.cardId }, shop.merchantKey);
    expect(api.node.lastKnownBalance).toBe('2500000');
    await expect.poll(() => card.locator('[data-known-balance]').getAttribute('data-known-balance')).toBe('2500000');
    expect(await card.locator('[data-known-balance]').textContent()).toContain('۲۵۰٬۰۰۰ تومان');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
