import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, makeMerchant, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';
import { quickPasswordHash } from '../users/support.js';
import {
  axeViolations,
  expectNoHorizontalScroll,
  gqlFromPage,
  inviteOwner,
  inviteUser,
  openLoaded,
  openSection,
  requireBuiltDashboard,
  sessionCookie,
  setPasswordByLink,
  signInWithForm,
  watchCsp,
} from './support.js';

/**
 * Two-factor sign-in in the dashboard, in Chromium at 360×740: a user sets it up from the security
 * page (the secret read off the page, the code computed here as an authenticator app would), signs
 * in with the second step (an app code, a recovery code), and an owner requires it for everyone.
 */
const PASSWORD = 'a-long-dashboard-password';
const PHONE = { width: 360, height: 740 };
const PERIOD_MS = 30_000;

let app: TestApp;
let browser: Browser;
let shop: Awaited<ReturnType<typeof makeShop>>;
let owner: { email: string; setPasswordPath: string };
let staff: { id: string; email: string };
const cspErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
  const merchant = await makeMerchant(app, { name: 'فروشگاه دومرحله‌ای' });
  shop = await makeShop(app, { merchantKey: merchant.merchantKey });
  owner = await inviteOwner(app, merchant.merchantId);
  await setPasswordByLink(app, owner.setPasswordPath, PASSWORD);
  // Each sign-in here checks the password: the link's 32 MiB hash swapped for a quick one of it.
  await app.deps.prisma.user.updateMany({ where: { email: owner.email }, data: { passwordHash: quickPasswordHash(PASSWORD) } });
  staff = await inviteUser(app, await sessionCookie(app, owner.email, PASSWORD), 'staff', PASSWORD);
  await app.deps.prisma.user.update({ where: { id: staff.id }, data: { passwordHash: quickPasswordHash(PASSWORD) } });
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/**
 * An authenticator app, per user: RFC 6238 as docs/security.md has it (SHA-1, 6 digits, 30 s). The
 * API takes a code once and only of a step above the last one used, and of the step now or one
 * either side: `next()` gives the code of the earliest step it will still take (the one before
 * now while more than 10 s of now remain, for the page's round trip), waiting for the clock only
 * when that step is more than one ahead. So a user has three codes before any wait.
 */
class Authenticator {
  private lastStep = -1;
  constructor(private readonly secret: string) {}

  private totp() {
    return new TOTP({ secret: Secret.fromBase32(this.secret), algorithm: 'SHA1', digits: 6, period: 30 });
  }

  async next(): Promise<string> {
    for (;;) {
      const at = Date.now();
      const now = Math.floor(at / PERIOD_MS);
      const earliest = (now + 1) * PERIOD_MS - at > 10_000 ? now - 1 : now;
      const step = Math.max(earliest, this.lastStep + 1);
      if (step <= now + 1) {
        this.lastStep = step;
        return this.totp().generate({ timestamp: step * PERIOD_MS + 1_000 });
      }
      await new Promise((r) => setTimeout(r, (now + 1) * PERIOD_MS - at + 50));
    }
  }

  /** Six digits that are the code of no step the API would take now. */
  wrong(): string {
    const near = [-1, 0, 1].map((d) => this.totp().generate({ timestamp: Date.now() + d * PERIOD_MS }));
    let n = 123_456;
    while (near.includes(String(n).padStart(6, '0'))) n = (n + 1) % 1_000_000;
    return String(n).padStart(6, '0');
  }
}

async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
  // A step that cannot happen fails with its own message, well inside the test's time.
  context.setDefaultTimeout(10_000);
  return context;
}

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  watchCsp(page, cspErrors);
  return page;
}

/** The first step of the login form; the page then shows either the next page or the code step. */
async function submitPassword(page: Page, email: string, next = '/dashboard'): Promise<void> {
  await page.goto(`${app.baseUrl}/dashboard/login?next=${encodeURIComponent(next)}`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole('button', { name: 'ورود', exact: true }).click();
}

async function enterCode(page: Page, code: string): Promise<void> {
  await page.locator('input[name="totp"]').fill(code);
  await page.getByRole('button', { name: 'ورود', exact: true }).click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'خروج' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard/login');
}

const overviewLoaded = async (page: Page, email: string) => {
  await page.waitForURL((url) => url.pathname === '/dashboard');
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await expect.poll(() => page.locator('#signed-in-as').textContent()).toBe(email);
};

/**
 * Sets up two-factor on the security page as a person would: the secret read off the page (as
 * typed into an app by hand), a wrong code refused, the right one turning it on. The ten recovery
 * codes shown once are returned with the user's authenticator.
 */
async function setUpOnPage(page: Page): Promise<{ app: Authenticator; recoveryCodes: string[] }> {
  await page.getByRole('button', { name: 'راه‌اندازی ورود دومرحله‌ای' }).click();
  const secretText = (await page.locator('#totp-secret').textContent()) ?? '';
  // Shown in groups of four for reading; the app takes it without the spaces.
  expect(secretText).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const authenticator = new Authenticator(secretText.replace(/\s/g, ''));

  // The QR code: an SVG image the qrcode library drew, with a Persian description.
  const qr = page.locator('img#totp-qr');
  await qr.waitFor();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
  expect(await qr.getAttribute('alt')).toContain('کد کیوآر');
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  const form = page.getByRole('form', { name: 'تأیید ورود دومرحله‌ای' });
  await form.getByLabel('کد شش‌رقمی‌ای که برنامه نشان می‌دهد').fill(authenticator.wrong());
  await form.getByRole('button', { name: 'تأیید و روشن کردن' }).click();
  await expect.poll(() => form.getByRole('alert').textContent()).toContain('کد درست نیست');

  // Persian digits, as a phone's keyboard may type them.
  const code = await authenticator.next();
  await form.getByLabel('کد شش‌رقمی‌ای که برنامه نشان می‌دهد').fill(code.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!));
  await form.getByRole('button', { name: 'تأیید و روشن کردن' }).click();
  const codes = page.locator('#recovery-codes li');
  await expect.poll(() => codes.count()).toBe(10);
  const recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
  expect(new Set(recoveryCodes).size).toBe(10);
  expect(await page.locator('#recovery-codes-panel').textContent()).toContain('فقط همین یک بار نشان داده می‌شوند');
  await page.locator('#totp-state[data-totp-enabled="true"]').waitFor();
  return { app: authenticator, recoveryCodes };
}

let ownerApp: Authenticator;
let ownerRecovery: string[];

describe('two-factor sign-in in the dashboard', () => {
  it('an owner sets it up from the security page: QR code, the secret for typing, a code, ten recovery codes once', { timeout: 90_000 }, async () => {
    const context = await newContext();
    const page = await newPage(context);
    await signInWithForm(page, app, owner.email, PASSWORD);
    // Reachable from the navigation.
    await openSection(page, 'ورود دومرحله‌ای');
    await page.waitForURL((url) => url.pathname === '/dashboard/security');
    await page.getByRole('heading', { name: 'ورود دومرحله‌ای', level: 1 }).waitFor();
    expect(await page.locator('#totp-state').getAttribute('data-totp-enabled')).toBe('false');
    await expectNoHorizontalScroll(page, PHONE.width);
    expect(await axeViolations(page)).toEqual([]);

    // "Required for everyone" waits for the owner's own two-factor (the API: 409 invalid_state).
    const required = page.getByRole('switch', { name: 'ورود دومرحله‌ای برای همهٔ کاربران لازم باشد' });
    expect(await required.isDisabled()).toBe(true);

    const set = await setUpOnPage(page);
    await expect.poll(() => required.isDisabled()).toBe(false);
    ownerApp = set.app;
    ownerRecovery = set.recoveryCodes;
    await expectNoHorizontalScroll(page, PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
    const viewer = await gqlFromPage(page, '{ viewer { user { totpEnabled } } }');
    expect(viewer.data.viewer.user.totpEnabled).toBe(true);

    // Once the user says they kept them, the codes are gone from the page for good.
    await page.getByRole('button', { name: 'کدها را نگه داشتم' }).click();
    expect(await page.locator('#recovery-codes').count()).toBe(0);
    await page.getByRole('form', { name: 'خاموش کردن ورود دومرحله‌ای' }).waitFor();
    // A desktop's width as well.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectNoHorizontalScroll(page, 1280);
    expect(await axeViolations(page)).toEqual([]);
    await signOut(page);
    await context.close();
  });

  it('asks for the code after the password: a wrong code is refused in Persian, a fresh one signs in', { timeout: 90_000 }, async () => {
    const context = await newContext();
    const page = await newPage(context);
    await submitPassword(page, owner.email);
    const code = page.locator('input[name="totp"]');
    await code.waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await page.getByRole('heading', { name: 'ورود دومرحله‌ای', level: 1 }).waitFor();
    await expectNoHorizontalScroll(page, PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
    // Without a session: nothing signed in yet.
    expect(await context.cookies(app.baseUrl)).toEqual([]);

    await enterCode(page, ownerApp.wrong());
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('کد درست نیست');
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    expect(await context.cookies(app.baseUrl)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);

    await enterCode(page, await ownerApp.next());
    await overviewLoaded(page, owner.email);
    await signOut(page);
    await context.close();
  });

  it('signs in with a recovery code instead, each code once', { timeout: 90_000 }, async () => {
    const context = await newContext();
    const page = await newPage(context);
    await submitPassword(page, owner.email);
    await page.getByRole('button', { name: 'گوشی در دسترس نیست؟ استفاده از کد بازیابی' }).click();
    await page.getByLabel('کد بازیابی').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await enterCode(page, ownerRecovery[0]!);
    await overviewLoaded(page, owner.email);
    await signOut(page);

    // The same recovery code again: spent.
    await submitPassword(page, owner.email);
    await page.getByRole('button', { name: 'گوشی در دسترس نیست؟ استفاده از کد بازیابی' }).click();
    await enterCode(page, ownerRecovery[0]!);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('این کد بازیابی درست نیست یا پیش‌تر به کار رفته است.');
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    await context.close();
  });

  it('an owner requires it for everyone: a staff member without it is refused a decision with a link to set it up, and kept on the set-up page until then', { timeout: 180_000 }, async () => {
    // A deposit that needs a decision.
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 230_000, orderId: 'order-2fa' })).body as { id: string };
    const deposit = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: payment.id, outcome: 'base_amount' } });
    const messageId: string = deposit.body.bankMessage.id;

    // The owner signs in with a second recovery code and opens the switch "required for everyone".
    const ownerContext = await newContext();
    const ownerPage = await newPage(ownerContext);
    await submitPassword(ownerPage, owner.email, '/dashboard/security');
    await ownerPage.getByRole('button', { name: 'گوشی در دسترس نیست؟ استفاده از کد بازیابی' }).click();
    await enterCode(ownerPage, ownerRecovery[1]!);
    await ownerPage.waitForURL((url) => url.pathname === '/dashboard/security');
    const required = ownerPage.getByRole('switch', { name: 'ورود دومرحله‌ای برای همهٔ کاربران لازم باشد' });
    expect(await required.isChecked()).toBe(false);
    expect(await ownerPage.locator('#require-totp-help').textContent()).toContain('تصمیم‌هایی که پول جابه‌جا می‌کنند');

    // The staff member has the review queue open, then the owner turns the switch on: the page
    // still offers the decision until the shell's next read (a poll every 30 s) learns of it.
    const staffContext = await newContext();
    const staffPage = await newPage(staffContext);
    await signInWithForm(staffPage, app, staff.email, PASSWORD, '/dashboard/test/review');
    const candidate = staffPage.locator(`[data-bank-message-id="${messageId}"] [data-candidate-payment-id="${payment.id}"]`);
    await candidate.waitFor();
    // The shell learns of the change within moments (the live stream ends on a credential change,
    // and the shell reads again) and then leaves the review queue for the set-up page: the shell's
    // reads are held here meanwhile, as on a slow network, so the page still offers the decision.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await staffPage.route('**/graphql', async (route) => {
      if ((route.request().postDataJSON() as { operationName?: string } | null)?.operationName === 'DashboardAttention') await held;
      await route.fallback();
    });
    await required.click();
    await expect.poll(async () => (await gqlFromPage(ownerPage, '{ viewer { merchant { requireTotp } } }')).data.viewer.merchant.requireTotp).toBe(true);

    // The staff member's decision: 403 totp_required, told in Persian with the way to set it up.
    await candidate.getByRole('button', { name: 'وصل کردن به این پرداخت' }).click();
    await candidate.getByRole('button', { name: 'بله، وصل شود' }).click();
    const refusal = candidate.locator('[role="alert"][data-error-code="totp_required"]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('ورود دومرحله‌ای را برای همه لازم کرده است');
    const after = await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey });
    expect(after.body.status).toBe('pending');
    // The link leads to the set-up page, whose own read says why (the shell's still held).
    await refusal.getByRole('link', { name: 'راه‌اندازی ورود دومرحله‌ای' }).click();
    await staffPage.waitForURL((url) => url.pathname === '/dashboard/test/security');
    expect(await staffPage.locator('#totp-required-note').textContent()).toContain('لازم کرده است');
    release();
    await staffPage.unroute('**/graphql');
    await expect.poll(() => required.isChecked()).toBe(true);
    expect(await axeViolations(ownerPage)).toEqual([]);
    expect(await axeViolations(staffPage)).toEqual([]);

    // Any other page sends them back here until it is set up, a fresh load as much as a link.
    await staffPage.getByRole('navigation').getByRole('link', { name: 'پرداخت‌ها' }).click();
    await staffPage.waitForURL((url) => url.pathname === '/dashboard/test/security');
    await staffPage.goto(`${app.baseUrl}/dashboard/test/review`);
    await staffPage.waitForURL((url) => url.pathname === '/dashboard/test/security');
    await staffPage.locator('#totp-required-note').waitFor();

    // Set up: the note goes, the other pages open, and the decision goes through.
    await setUpOnPage(staffPage);
    await expect.poll(() => staffPage.locator('#totp-required-note').count()).toBe(0);
    await openLoaded(staffPage, app, '/dashboard/test/review');
    expect(new URL(staffPage.url()).pathname).toBe('/dashboard/test/review');
    await candidate.getByRole('button', { name: 'وصل کردن به این پرداخت' }).click();
    await candidate.getByRole('button', { name: 'بله، وصل شود' }).click();
    await staffPage.locator(`[data-bank-message-id="${messageId}"]`).waitFor({ state: 'detached' });
    const confirmed = await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey });
    expect(confirmed.body).toMatchObject({ status: 'confirmed', bankMessageId: messageId });

    // The owner lifts the requirement and turns their own two-factor off with a code.
    await required.click();
    await expect.poll(async () => (await gqlFromPage(ownerPage, '{ viewer { merchant { requireTotp } } }')).data.viewer.merchant.requireTotp).toBe(false);
    const off = ownerPage.getByRole('form', { name: 'خاموش کردن ورود دومرحله‌ای' });
    await off.getByRole('textbox').fill(await ownerApp.next());
    await off.getByRole('button', { name: 'خاموش کردن ورود دومرحله‌ای' }).click();
    await ownerPage.locator('#totp-state[data-totp-enabled="false"]').waitFor();
    await ownerPage.getByRole('button', { name: 'راه‌اندازی ورود دومرحله‌ای' }).waitFor();
    // Signing in asks for the password only again.
    await signOut(ownerPage);
    await signInWithForm(ownerPage, app, owner.email, PASSWORD);
    await overviewLoaded(ownerPage, owner.email);
    await ownerContext.close();
    await staffContext.close();
  });

  it('printed no Content-Security-Policy error on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
