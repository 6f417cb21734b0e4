import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { addUser } from '../../src/domain/users/users.js';
import { startDemo } from '../../src/flows/demo-activity.js';
import { gqlOk, request, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';
import { axeViolations, expectNoHorizontalScroll, openLoaded, requireBuiltDashboard, signInWithForm, watchCsp } from './support.js';

/**
 * The merchant's guide (docs/dashboard.md) shows the demo that `npm start` seeds, signed in as its
 * owner, at 360×740 and at a desktop width: this file takes those pictures, and checks every page
 * at the desktop width as the other file does on a phone (no horizontal scroll, no axe violation).
 *
 * The pictures go to test-results/dashboard-screens/; `DASHBOARD_SCREENSHOTS=docs npx vitest run
 * test/dashboard/screenshots.test.ts` writes them over docs/images/dashboard/ (JPEG, quality 70,
 * each kept under 150 KB so the repository stays small).
 */
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const OUT = process.env.DASHBOARD_SCREENSHOTS === 'docs' ? path.join('docs', 'images', 'dashboard') : path.join('test-results', 'dashboard-screens');
const MAX_BYTES = 150 * 1024;
const MAX_HEIGHT = 1400;

let app: TestApp;
let browser: Browser;
let demo: Awaited<ReturnType<typeof startDemo>>;
let phone: BrowserContext;
let desktop: BrowserContext;
const cspErrors: string[] = [];
const written: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  // Links the pages show (hook URL, payment links) read as on `npm start`'s default address.
  [app, browser] = await Promise.all([startTestApp({ env: { PUBLIC_BASE_URL: 'http://localhost:3000' } }), launchChromium()]);
  // The demo as `npm start` seeds it: payments in every state, a refund, deposits to review.
  demo = await startDemo(app.deps, operatorActor);
  // Beside its sandbox project, a live one with a phone that forwards the bank's SMS and a card on it.
  const device = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "گوشی فروشگاه" }) { token device { id } } }`, {}, demo.merchantKey);
  await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: device.createDevice.token });
  const live = await gqlOk(app.baseUrl, `mutation { createProject(input: { name: "فروشگاه اصلی", sandbox: false }) { project { id } } }`, {}, demo.merchantKey);
  await gqlOk(
    app.baseUrl,
    `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`,
    {
      input: {
        projectId: live.createProject.project.id,
        deviceId: device.createDevice.device.id,
        bankCode: 'mellat',
        cardNumber: '6104339988776658',
        holderName: 'فروشگاه نمونه',
        dailyAmountCap: '1000000000',
        dailyCountCap: 200,
        monthlyAmountCap: '20000000000',
      },
    },
    demo.merchantKey,
  );
  // Two colleagues, as `merchant user add` adds them: one who set a password, one not yet.
  const cashier = await addUser(app.deps, operatorActor, { merchantId: demo.merchantId, email: 'cashier@demo.local', role: 'staff' });
  await request(app.baseUrl, 'POST', '/v1/session/password', { body: { token: new URL(cashier.setPasswordUrl).searchParams.get('token'), password: 'a-long-cashier-password' } });
  await addUser(app.deps, operatorActor, { merchantId: demo.merchantId, email: 'accountant@demo.local', role: 'viewer' });
  mkdirSync(OUT, { recursive: true });
  phone = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
  desktop = await browser.newContext({ viewport: DESKTOP, locale: 'fa-IR' });
  // A step that cannot happen fails with its own message, well inside the test's time.
  for (const context of [phone, desktop]) context.setDefaultTimeout(10_000);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  watchCsp(page, cspErrors);
  return page;
}

/** Loaded, and live (the subscription open), so the screenshot shows the live state. */
async function open(page: Page, pathname: string): Promise<void> {
  await openLoaded(page, app, pathname);
  await page.locator('#live-state.on').waitFor();
}

/** The page as a JPEG: the screen at a phone's size, the whole page (up to 1400 px) at a desktop's. */
async function shoot(page: Page, name: string, opts: { full?: boolean } = {}): Promise<void> {
  const file = path.join(OUT, `${name}.jpg`);
  const viewport = page.viewportSize() ?? DESKTOP;
  const height = opts.full ? Math.min(MAX_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight)) : viewport.height;
  await page.screenshot({ path: file, type: 'jpeg', quality: 70, fullPage: Boolean(opts.full), clip: { x: 0, y: 0, width: viewport.width, height }, animations: 'disabled', caret: 'hide' });
  expect(statSync(file).size, `${file} is too big for the repository`).toBeLessThanOrEqual(MAX_BYTES);
  written.push(file);
}

async function paymentId(orderId: string): Promise<string> {
  const found = await gqlOk(app.baseUrl, `query($orderId: String) { payments(orderId: $orderId, first: 1) { edges { node { id } } } }`, { orderId }, demo.merchantKey);
  return found.payments.edges[0].node.id;
}

describe('the guide’s pictures: the demo merchant’s dashboard on a phone and on a desktop', () => {
  it('signs in as the demo owner that `npm start` prints', async () => {
    const page = await newPage(phone);
    await page.goto(`${app.baseUrl}/dashboard/login`);
    await page.locator('input[name="email"]').fill(demo.ownerEmail);
    await shoot(page, 'login-phone');
    await signInWithForm(page, app, demo.ownerEmail, demo.ownerPassword);
    // The demo's day of activity is a sandbox project's: the test side (the mirror /dashboard/test/…).
    await open(page, '/dashboard/test');
    // The chart is drawn once it nears the screen.
    await page.locator('.chart-box').scrollIntoViewIfNeeded();
    await page.locator('.chart canvas').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, 'overview-phone');
    // The bottom bar's "more" sheet: every section, on a phone.
    await page.getByRole('button', { name: 'بیشتر' }).click();
    await page.getByRole('dialog', { name: 'همهٔ بخش‌ها' }).waitFor();
    await shoot(page, 'more-sheet-phone');
    await page.close();
    // The desktop context signs in too (its own session, as a second browser would).
    const wide = await newPage(desktop);
    await signInWithForm(wide, app, demo.ownerEmail, demo.ownerPassword);
    await wide.close();
  });

  it('shows the main pages', { timeout: 60_000 }, async () => {
    const page = await newPage(desktop);
    await open(page, '/dashboard/test');
    // The chart is drawn once it nears the screen.
    await page.locator('.chart-box').scrollIntoViewIfNeeded();
    await page.locator('.chart canvas').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, 'overview-desktop', { full: true });
    await open(page, '/dashboard/test/payments');
    expect(await page.locator('[data-payment-id]').count()).toBeGreaterThanOrEqual(9);
    await shoot(page, 'payments-desktop');
    // A payment paid by a matched SMS and partly refunded: its evidence, refunds and timeline.
    await open(page, `/dashboard/payments/${await paymentId('demo-1002')}`);
    await page.getByRole('region', { name: 'شواهد: پیامک واریز' }).locator('.sms').waitFor();
    await shoot(page, 'payment-desktop', { full: true });
    await open(page, '/dashboard/test/review');
    expect(await page.locator('[data-bank-message-id]').count()).toBeGreaterThanOrEqual(2);
    await shoot(page, 'review-desktop', { full: true });
    await open(page, '/dashboard/users');
    await shoot(page, 'users-desktop');
    await page.close();

    const small = await newPage(phone);
    await open(small, '/dashboard/test/review');
    await small.locator('[data-candidate-payment-id]').first().scrollIntoViewIfNeeded();
    await shoot(small, 'review-phone');
    await open(small, '/dashboard/devices');
    // The forwarder app's hook URL, shown once when made (a phone gets one when added; a new one replaces it).
    await small.getByRole('button', { name: 'نشانی هوک تازه (قبلی باطل می‌شود)' }).click();
    await small.locator('.once code').waitFor();
    expect(await small.locator('.once code').textContent()).toContain('/v1/device/hooks/');
    await shoot(small, 'devices-phone', { full: true });
    await open(small, '/dashboard/cards');
    await shoot(small, 'cards-phone', { full: true });
    await open(small, '/dashboard/cards/new');
    await shoot(small, 'card-new-phone');
    await small.close();
    expect(written.length).toBeLessThanOrEqual(13);
  });

  it('fits every page at a desktop width, with no axe violation', { timeout: 60_000 }, async () => {
    const page = await newPage(desktop);
    const paths = [
      '/dashboard',
      '/dashboard/test',
      '/dashboard/test/payments',
      `/dashboard/test/payments/${await paymentId('demo-1004')}`,
      '/dashboard/test/review',
      '/dashboard/devices',
      '/dashboard/devices/new',
      '/dashboard/cards',
      '/dashboard/cards/new',
      '/dashboard/webhooks',
      '/dashboard/test/links',
      '/dashboard/projects',
      '/dashboard/credit',
      '/dashboard/users',
      '/dashboard/audit',
      '/dashboard/exports',
    ];
    const problems: Record<string, string[]> = {};
    for (const pathname of paths) {
      await open(page, pathname);
      await expectNoHorizontalScroll(page, DESKTOP.width);
      const violations = await axeViolations(page);
      if (violations.length) problems[pathname] = violations;
    }
    await page.close();
    const signedOut = await newPage(await browser.newContext({ viewport: DESKTOP, locale: 'fa-IR' }));
    for (const pathname of ['/dashboard/login', '/dashboard/set-password?token=expired-or-unknown']) {
      await signedOut.goto(`${app.baseUrl}${pathname}`);
      await signedOut.locator('h1').waitFor();
      const violations = await axeViolations(signedOut);
      if (violations.length) problems[pathname] = violations;
    }
    expect(problems).toEqual({});
    expect(cspErrors).toEqual([]);
  });
});
