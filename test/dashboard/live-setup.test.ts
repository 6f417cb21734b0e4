import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { setTopUpProject } from '../../src/domain/credit/topups.js';
import { launchChromium } from '../support/browser.js';
import { CALLBACK, makeMerchant, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';
import { inviteOwner, openLoaded, requireBuiltDashboard, setPasswordByLink, signInWithForm } from './support.js';

/**
 * docs/live-setup.md followed in order, as a new merchant would, on a phone (360×740): signing in,
 * fee credit bought through the gateway, a live project and its key, a phone by its hook URL, a card
 * with its account number and opening balance, then a live payment confirmed by the bank's deposit
 * SMS forwarded through that hook. Each step's time is printed: how long the guide's path takes
 * when nothing goes wrong (a person reads and types; this is the floor of it).
 */
const PASSWORD = 'a-long-dashboard-password';
const ACCOUNT = '2233445566';
const OPENING_TOMAN = 3_000_000;

let app: TestApp;
let browser: Browser;
let page: Page;
let owner: { email: string; setPasswordPath: string };
/** The operator's top-up project's key: its sandbox deposit pays the merchant's credit. */
let topUpKey: string;

beforeAll(async () => {
  requireBuiltDashboard();
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
  // The operator's side: a merchant with no credit, its owner invited, and the project that sells credit.
  const merchant = await makeMerchant(app, { name: 'فروشگاه تازه', credit: 0 });
  owner = await inviteOwner(app, merchant.merchantId);
  const operatorShop = await makeShop(app, { settings: { name: 'اعتبار درگاه' } });
  await setTopUpProject(app.deps, operatorActor, operatorShop.projectId);
  topUpKey = operatorShop.apiKey;
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'fa-IR' });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('docs/live-setup.md, followed in the dashboard', () => {
  it('takes a new merchant from the invitation to a live payment confirmed by its deposit SMS', { timeout: 120_000 }, async () => {
    const steps: [string, number][] = [];
    let last = Date.now();
    const step = (name: string) => {
      steps.push([name, Date.now() - last]);
      last = Date.now();
    };

    // 1. Signing in: the invitation's link sets the password, then the login form.
    await setPasswordByLink(app, owner.setPasswordPath, PASSWORD);
    await signInWithForm(page, app, owner.email, PASSWORD);
    step('1. signing in');

    // 2. Fee credit: bought on the credit page, paid (here by a simulated deposit on the operator's sandbox top-up project).
    await openLoaded(page, app, '/dashboard/credit');
    await page.locator('#topup-form input[name="amount"]').fill('۱۰۰٬۰۰۰');
    await page.locator('#topup-form').getByRole('button', { name: 'خرید اعتبار' }).click();
    const row = page.locator('[data-topup-payment-id]').first();
    await row.waitFor();
    const topUpPayment = await row.getAttribute('data-topup-payment-id');
    const paid = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: topUpKey, body: { paymentId: topUpPayment, outcome: 'match' } });
    expect(paid.status, paid.text).toBe(200);
    await openLoaded(page, app, '/dashboard/credit');
    await expect.poll(() => page.locator(`[data-topup-payment-id="${topUpPayment}"]`).getAttribute('data-credited')).toBe('true');
    step('2. fee credit');

    // 3.1 A live project: its API key shown once.
    await openLoaded(page, app, '/dashboard/projects');
    await page.locator('#project-name').fill('فروشگاه اصلی');
    await page.getByRole('button', { name: 'ساختن', exact: true }).click();
    const apiKey = (await page.locator('.once .secret').first().textContent())!.trim();
    expect(apiKey).toMatch(/^sk_live_/);
    step('3.1 live project');

    // 3.2 The phone: its hook URL shown once (as text and as a QR code).
    await openLoaded(page, app, '/dashboard/devices/new');
    await page.locator('input[name="name"]').fill('گوشی صندوق');
    await page.getByRole('button', { name: 'ساختن گوشی و نشانی هوک' }).click();
    const made = page.locator('#new-device');
    await made.waitFor();
    await page.locator('#hook-qr').waitFor();
    const hookUrl = new URL((await made.locator('.secret').first().textContent())!.trim());
    const deviceId = await made.getAttribute('data-device-id');
    // The forwarder app, pointed at the hook, says it is alive.
    expect((await request(app.baseUrl, 'POST', `${hookUrl.pathname}/heartbeat`, { rawBody: 'ping', headers: { 'content-type': 'text/plain' } })).status).toBe(204);
    step('3.2 phone');

    // 3.3 The card: bank, number, account number, the phone, the opening balance (toman).
    await openLoaded(page, app, '/dashboard/cards/new');
    const form = page.getByRole('form', { name: 'کارت تازه' });
    await form.locator('select[name="bankCode"]').selectOption('mellat');
    await form.locator('input[name="cardNumber"]').fill('6104 3378 2233 4455');
    await form.locator('input[name="holderName"]').fill('مریم کاظمی');
    await form.locator('input[name="accountNumber"]').fill(ACCOUNT);
    await form.locator('select[name="deviceId"]').selectOption(deviceId!);
    await form.locator('input[name="openingBalance"]').fill(OPENING_TOMAN.toLocaleString('en-US'));
    await form.getByRole('button', { name: 'افزودن کارت' }).click();
    await page.locator('#new-card').waitFor();
    step('3.3 card');

    // 3.5 A real payment with the live key; the bank's deposit SMS, forwarded through the hook, confirms it.
    const created = await request(app.baseUrl, 'POST', '/v1/payments', { token: apiKey, body: { amount: 1_500_000, callbackUrl: CALLBACK, orderId: 'live-1' } });
    expect(created.status, created.text).toBe(201);
    const balance = BigInt(OPENING_TOMAN) * 10n + BigInt(created.body.amountFinal);
    const sms = await request(app.baseUrl, 'POST', hookUrl.pathname, {
      body: { from: '+98700701', text: mellatDeposit({ account: ACCOUNT, amount: created.body.amountFinal, balance }), receivedStamp: Date.now() },
    });
    expect(sms.status, sms.text).toBeLessThan(300);
    await expect.poll(async () => (await request(app.baseUrl, 'GET', `/v1/payments/${created.body.id}`, { token: apiKey })).body.status).toBe('confirmed');
    await openLoaded(page, app, `/dashboard/payments/${created.body.id}`);
    await page.getByText('live-1').first().waitFor();
    step('3.5 a live payment confirmed by its SMS');

    const total = steps.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`docs/live-setup.md followed in ${(total / 1000).toFixed(1)} s: ${steps.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)} s`).join('; ')}`);
    expect(steps.map(([n]) => n)).toEqual(['1. signing in', '2. fee credit', '3.1 live project', '3.2 phone', '3.3 card', '3.5 a live payment confirmed by its SMS']);
  });
});
