import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, gqlOk, makeMerchant, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { setTopUpProject } from '../../src/domain/credit/topups.js';
import { axeViolations, expectNoHorizontalScroll, inviteOwner, openLoaded, requireBuiltDashboard, setPasswordByLink, signInWithForm, watchCsp } from './support.js';

/**
 * The merchant runs the shop alone, on a phone (360×740): the bottom bar and its "more" sheet, a
 * phone and a card added from the dashboard (inputs named as the GraphQL input fields), a project's
 * settings with the API's refusal in Persian under its field, live and test apart in lists, counts,
 * badge and totals, the overview's chart, the credit and password-reset fallbacks, a credit top-up. One browser, one
 * session, pages visited in turn.
 */
const PASSWORD = 'a-long-dashboard-password';
const PHONE = { width: 360, height: 740 };

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let merchantKey: string;
let live: Awaited<ReturnType<typeof makeShop>>;
let sandbox: Awaited<ReturnType<typeof makeShop>>;
let ownerEmail: string;
const cspErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
  const merchant = await makeMerchant(app, { name: 'فروشگاه خودگردان', credit: 10_000_000 });
  merchantKey = merchant.merchantKey;
  live = await makeShop(app, { merchantKey, sandbox: false, settings: { name: 'فروشگاه اصلی' } });
  sandbox = await makeShop(app, { merchantKey, settings: { name: 'آزمون' }, card: { cardNumber: '6037991234567893' } });
  const owner = await inviteOwner(app, merchant.merchantId);
  ownerEmail = owner.email;
  await setPasswordByLink(app, owner.setPasswordPath, PASSWORD);
  context = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
  watchCsp(page, cspErrors);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const checkPage = async (problems: Record<string, string[]>) => {
  await expectNoHorizontalScroll(page, PHONE.width);
  const violations = await axeViolations(page);
  if (violations.length) problems[new URL(page.url()).pathname] = violations;
};

describe('the merchant’s own dashboard on a phone', () => {
  it('offers a forgotten password the way the service can: without mail, ask the shop’s owner', async () => {
    await page.goto(`${app.baseUrl}/dashboard/login`);
    await page.getByRole('button', { name: 'گذرواژه را فراموش کرده‌ام' }).click();
    await page.locator('#reset-ask-owner').waitFor();
    expect((await request(app.baseUrl, 'GET', '/v1/session/reset')).body).toEqual({ byEmail: false });
    const problems: Record<string, string[]> = {};
    await checkPage(problems);
    expect(problems).toEqual({});
    await signInWithForm(page, app, ownerEmail, PASSWORD);
  });

  it('reaches every section from the bottom bar’s “more” sheet, none clipped at 360 px', async () => {
    await openLoaded(page, app, '/dashboard');
    const bar = page.getByRole('navigation', { name: 'بخش‌های روزانه' });
    expect(await bar.getByRole('link').allTextContents()).toEqual(['نمای کلی', 'پرداخت‌ها', 'بررسی', 'گوشی‌ها']);
    await page.getByRole('button', { name: 'بیشتر' }).click();
    const sheet = page.getByRole('dialog', { name: 'همهٔ بخش‌ها' });
    const links = sheet.getByRole('link');
    expect(await links.count()).toBeGreaterThanOrEqual(13);
    for (const box of await links.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(PHONE.width);
    }
    // Every link's words fit in it (no word cut off by its box).
    expect(await links.evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent))).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => sheet.isVisible()).toBe(false);
  });

  it('adds a phone (its hook URL and QR code shown once) and a card with its caps, inputs named as the API’s fields', { timeout: 60_000 }, async () => {
    const problems: Record<string, string[]> = {};
    await openLoaded(page, app, '/dashboard/devices');
    await page.getByRole('link', { name: 'افزودن گوشی' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/devices/new');
    await page.locator('input[name="name"]').fill('گوشی صندوق');
    await page.getByRole('button', { name: 'ساختن گوشی و نشانی هوک' }).click();
    const made = page.locator('#new-device');
    await made.waitFor();
    expect(await made.locator('.secret').textContent()).toContain('/v1/device/hooks/');
    await page.locator('#hook-qr').waitFor();
    const deviceId = await made.getAttribute('data-device-id');
    await checkPage(problems);

    await openLoaded(page, app, '/dashboard/cards/new');
    await checkPage(problems);
    const form = page.getByRole('form', { name: 'کارت تازه' });
    await form.locator('select[name="bankCode"]').selectOption('mellat');
    // The bank's known SMS lines are offered for smsSender.
    expect(await form.locator('datalist option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toContain('+98700701');
    await form.locator('input[name="cardNumber"]').fill('۶۱۰۴ ۳۳۷۸');
    await form.locator('input[name="holderName"]').fill('سارا احمدی');
    await form.getByRole('button', { name: 'افزودن کارت' }).click();
    // Refused before it is sent, in Persian, under the field it names; nothing saved.
    await form.locator('[data-field-error="cardNumber"]').waitFor();
    expect(await form.locator('[data-field-error="cardNumber"]').textContent()).toBe('شمارهٔ کارت ۱۶ رقم است.');
    await form.locator('input[name="cardNumber"]').fill('6104 3378 1111 2222');
    await form.locator('input[name="accountNumber"]').fill('1234567890');
    await form.locator('select[name="deviceId"]').selectOption(deviceId!);
    await form.locator('input[name="openingBalance"]').fill('۲۵۰٬۰۰۰');
    await form.locator('input[name="dailyAmountCap"]').fill('5000000');
    await form.locator('input[name="dailyCountCap"]').fill('۲۰');
    await form.getByRole('button', { name: 'افزودن کارت' }).click();
    const card = page.locator('#new-card');
    await card.waitFor();
    const cardId = await card.getAttribute('data-card-id');
    const api = await gqlOk(
      app.baseUrl,
      `query($id: ID!) { node(id: $id) { ... on Card { bankCode cardNumber holderName accountNumber deviceId lastKnownBalance dailyAmountCap dailyCountCap projectId } } }`,
      { id: cardId },
      merchantKey,
    );
    // Amounts typed in toman are kept in rials; the live side's one project took it.
    expect(api.node).toEqual({
      bankCode: 'mellat',
      cardNumber: '6104337811112222',
      holderName: 'سارا احمدی',
      accountNumber: '1234567890',
      deviceId,
      lastKnownBalance: '2500000',
      dailyAmountCap: '50000000',
      dailyCountCap: 20,
      projectId: live.projectId,
    });
    expect(problems).toEqual({});
  });

  it('saves a project’s settings, the API’s refusal shown in Persian under the field, a 5-second limit shown as 5 seconds', async () => {
    await openLoaded(page, app, '/dashboard/projects');
    const panel = page.getByRole('region', { name: 'فروشگاه اصلی' });
    await panel.getByText('تنظیمات پروژه').click();
    const form = panel.getByRole('form', { name: 'تنظیمات پروژه' });
    await form.locator('input[name="paymentTimeLimitSeconds"]').fill('3');
    await form.getByRole('button', { name: 'ذخیرهٔ تنظیمات' }).click();
    const refusal = form.locator('[data-field-error="paymentTimeLimitSeconds"]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe('باید دست‌کم ۵ باشد.');
    expect(await form.getByRole('alert').allTextContents()).not.toContainEqual(expect.stringMatching(/[A-Za-z]/));
    await form.locator('input[name="paymentTimeLimitSeconds"]').fill('5');
    await form.locator('input[name="supportPhone"]').fill('02188776655');
    await form.getByRole('button', { name: 'ذخیرهٔ تنظیمات' }).click();
    await form.getByText('تنظیمات ذخیره شد.').waitFor();
    await expect.poll(() => panel.locator('.facts').textContent()).toContain('۵ ثانیه');
    const saved = await gqlOk(app.baseUrl, `query($id: ID!) { node(id: $id) { ... on Project { paymentTimeLimitSeconds supportPhone } } }`, { id: live.projectId }, merchantKey);
    expect(saved.node).toEqual({ paymentTimeLimitSeconds: 5, supportPhone: '02188776655' });
  });

  it('keeps live and test apart: lists, counts, sums, the badge and the overview’s totals', { timeout: 60_000 }, async () => {
    const livePayment = (await createPaymentRest(app, live.apiKey, { amount: 120_000, orderId: 'live-1' })).body;
    const paid = (await createPaymentRest(app, sandbox.apiKey, { amount: 300_000, orderId: 'test-paid' })).body;
    expect((await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: sandbox.apiKey, body: { paymentId: paid.id, outcome: 'match' } })).status).toBe(200);
    const held = (await createPaymentRest(app, sandbox.apiKey, { amount: 210_000, orderId: 'test-held' })).body;
    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: sandbox.apiKey, body: { paymentId: held.id, outcome: 'base_amount' } });
    const listed = () => page.locator('[data-payment-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-payment-id')));

    await openLoaded(page, app, '/dashboard/payments');
    await expect.poll(listed).toEqual([livePayment.id]);
    expect(await page.locator('#payments-total').getAttribute('data-count')).toBe('1');
    expect(await page.locator('#payments-total').getAttribute('data-total-amount')).toBe(livePayment.amountFinal);
    expect(await page.locator('#attention-count').count()).toBe(0);

    // The switch leads to the same page's mirror; the sandbox's payments only, its sums, its badge.
    await page.locator('#mode-switch [data-mode="test"]').click();
    await page.waitForURL((url) => url.pathname === '/dashboard/test/payments');
    await expect.poll(async () => (await listed()).sort()).toEqual([paid.id, held.id].sort());
    const total = page.locator('#payments-total');
    expect(await total.getAttribute('data-total-received')).toBe(paid.amountFinal);
    const queue = await gqlOk(app.baseUrl, `{ reviewQueue(sandbox: true) { total } }`, {}, merchantKey);
    expect(queue.reviewQueue.total).toBeGreaterThanOrEqual(1);
    await expect.poll(() => page.locator('#attention-count').getAttribute('data-count')).toBe(String(queue.reviewQueue.total));

    // The overview of the test side: the badge's own number, the month's net, the chart.
    await page.getByRole('navigation', { name: 'بخش‌های روزانه' }).getByRole('link', { name: 'نمای کلی' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/test');
    await page.locator('#month-confirmed-sum [data-rials]').waitFor();
    const month = await gqlOk(app.baseUrl, `{ paymentStats(range: THIS_MONTH, groupBy: TOTAL, sandbox: true) { netAmount } }`, {}, merchantKey);
    expect(await page.locator('#month-confirmed-sum [data-rials]').getAttribute('data-rials')).toBe(month.paymentStats[0].netAmount);
    expect(await page.locator('#review-waiting [data-count]').getAttribute('data-count')).toBe(String(queue.reviewQueue.total));
    // The chart is drawn once it nears the screen.
    await page.locator('.chart-box').scrollIntoViewIfNeeded();
    await page.locator('.chart canvas').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    const problems: Record<string, string[]> = {};
    await checkPage(problems);

    // Back to live: the sandbox's money is in none of its figures.
    await page.locator('#mode-switch [data-mode="live"]').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await expect.poll(() => page.locator('#month-confirmed-sum [data-rials]').getAttribute('data-rials')).toBe('0');

    // Credit: without a top-up project, the page says to ask the operator.
    await openLoaded(page, app, '/dashboard/credit');
    await page.locator('#topup-unavailable').waitFor();
    await checkPage(problems);
    expect(problems).toEqual({});
  });

  it('buys fee credit through the gateway once the operator names a top-up project: credited once its payment is confirmed', { timeout: 60_000 }, async () => {
    // The operator's own merchant takes top-ups on a sandbox project (simulated deposits confirm them).
    const operatorShop = await makeShop(app, { settings: { name: 'اعتبار درگاه' } });
    await setTopUpProject(app.deps, operatorActor, operatorShop.projectId);
    const credit = async () => (await gqlOk(app.baseUrl, `{ viewer { merchant { credit { balance } } } }`, {}, merchantKey)).viewer.merchant.credit.balance as string;
    const before = BigInt(await credit());
    await openLoaded(page, app, '/dashboard/credit');
    const form = page.locator('#topup-form');
    await form.locator('input[name="amount"]').fill('۵۰٬۰۰۰');
    await form.getByRole('button', { name: 'خرید اعتبار' }).click();
    const created = page.locator('#topup-created');
    await created.waitFor();
    const checkout = await created.getByRole('link', { name: 'رفتن به صفحهٔ پرداخت' }).getAttribute('href');
    expect(checkout).toContain('/pay/');
    const row = page.locator('[data-topup-payment-id]').first();
    await row.waitFor();
    expect(await row.getAttribute('data-credited')).toBe('false');
    const paymentId = await row.getAttribute('data-topup-payment-id');
    // Paid: a simulated deposit on the operator's sandbox top-up project confirms it.
    const paid = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: operatorShop.apiKey, body: { paymentId, outcome: 'match' } });
    expect(paid.status, paid.text).toBe(200);
    await expect.poll(async () => BigInt(await credit()) - before).toBe(500_000n);
    await openLoaded(page, app, '/dashboard/credit');
    await expect.poll(() => page.locator(`[data-topup-payment-id="${paymentId}"]`).getAttribute('data-credited')).toBe('true');
    const problems: Record<string, string[]> = {};
    await checkPage(problems);
    expect(problems).toEqual({});
    expect(cspErrors).toEqual([]);
  });
});
