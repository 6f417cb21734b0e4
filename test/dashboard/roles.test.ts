import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentRest, makeMerchant, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';
import {
  axeViolations,
  changeRole,
  gqlFromPage,
  gqlWithSession,
  inviteOwner,
  inviteUser,
  requireBuiltDashboard,
  sessionCookie,
  setPasswordByLink,
  signInWithForm,
  type SessionGql,
} from './support.js';

/**
 * Roles in the browser (docs/dashboard.md "Users and roles"): the pages leave out what a
 * role cannot do, and the refusal itself comes from the API (403 `forbidden`), which the page shows
 * in Persian. A role changed by an owner while the page is open is the honest case: the page still
 * offers the action, the API refuses it.
 */
const PASSWORD = 'a-long-dashboard-password';
const PHONE = { width: 360, height: 740 };
const INVITE = 'mutation($email: String!, $role: UserRole!) { inviteUser(email: $email, role: $role) { setPasswordUrl } }';
const ATTACH = 'mutation($messageId: ID!, $paymentId: ID!) { attachBankMessage(messageId: $messageId, paymentId: $paymentId) { id status } }';

let app: TestApp;
let browser: Browser;
let shop: Awaited<ReturnType<typeof makeShop>>;
let ownerCookie: string;

beforeAll(async () => {
  requireBuiltDashboard();
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
  const merchant = await makeMerchant(app, { name: 'فروشگاه نقش‌ها' });
  shop = await makeShop(app, { merchantKey: merchant.merchantKey });
  // The first owner, as the operator's CLI adds one (`merchant user add`), password set by its link.
  const owner = await inviteOwner(app, merchant.merchantId);
  await setPasswordByLink(app, owner.setPasswordPath, PASSWORD);
  ownerCookie = await sessionCookie(app, owner.email, PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/**
 * A phone-sized browser signed in through the login form, on `next`. With `live: false` the page's
 * live stream cannot connect (as on a dropped connection): such a page learns of a role change
 * only from its next read (every 30 s), so what it offered stays on screen and the API decides.
 * With `clock`, the page's timers run on Playwright's clock, which the test may move ahead.
 */
async function signedInPage(email: string, next: string, opts: { live: boolean; clock?: boolean }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
  if (opts.clock) await context.clock.install();
  // A step that cannot happen fails with its own message, well inside the test's time.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  if (!opts.live) {
    await page.route('**/graphql', (route) => (route.request().postData()?.includes('subscription DashboardPaymentEvents') ? route.abort() : route.fallback()));
  }
  await signInWithForm(page, app, email, PASSWORD, next);
  await page.locator('h1').first().waitFor();
  await expect.poll(() => page.getByText('در حال بارگذاری…').count(), { timeout: 10_000 }).toBe(0);
  if (opts.live) await page.locator('#live-state.on').waitFor();
  return { context, page };
}

/**
 * The API's refusal: GraphQL answers the catalog's `forbidden` (403 in REST) as a field error of its
 * response, with no result for the field, as GraphQL over HTTP has it (src/graphql/errors.ts).
 */
function refused(res: SessionGql, field: string) {
  return { code: res.errors?.[0]?.extensions?.code, result: res.data?.[field] ?? null };
}

describe('roles in the dashboard: the API refuses, the page says so in Persian', () => {
  it('refuses a staff member the owner-only users work: the page shows the API’s refusal, and the API refuses it (forbidden)', async () => {
    // Invited as an owner, signed in on the users page with the invite form in front of them…
    const second = await inviteUser(app, ownerCookie, 'owner', PASSWORD);
    const { context, page } = await signedInPage(second.email, '/dashboard/users', { live: false });
    const form = page.getByRole('form', { name: 'دعوت کاربر' });
    await form.waitFor();
    await form.getByLabel('ایمیل').fill('new-cashier@shop.example.com');

    // …then made staff by the first owner. The form is still on screen; the API decides.
    await changeRole(app, ownerCookie, second.id, 'staff');
    await form.getByRole('button', { name: 'دعوت' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('نقش شما («کارمند») اجازهٔ این کار را نمی‌دهد؛ مالک حساب می‌تواند نقش شما را تغییر دهد.');
    expect(await form.getByText('پیوند دعوت').count()).toBe(0);

    // The same operation from this browser's session, and from a staff session made afresh: forbidden.
    expect(refused(await gqlFromPage(page, INVITE, { email: 'other@shop.example.com', role: 'viewer' }), 'inviteUser')).toEqual({ code: 'forbidden', result: null });
    const staffCookie = await sessionCookie(app, second.email, PASSWORD);
    expect(refused(await gqlWithSession(app, staffCookie, INVITE, { email: 'third@shop.example.com', role: 'owner' }), 'inviteUser')).toEqual({ code: 'forbidden', result: null });
    const users = await gqlWithSession(app, ownerCookie, '{ users { email } }');
    expect(users.data.users.map((u: { email: string }) => u.email)).not.toContain('new-cashier@shop.example.com');

    // Opened again as staff: the users are listed, the owner's tools are not, and the page says why.
    await page.unrouteAll();
    await page.reload();
    await page.locator('#owner-only-note').waitFor();
    expect(await page.getByRole('form', { name: 'دعوت کاربر' }).count()).toBe(0);
    expect(await page.locator(`[data-user-id="${second.id}"]`).getAttribute('data-role')).toBe('staff');
    expect(await page.getByRole('button', { name: 'حذف کاربر' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // Another of the owner's pages: keys are listed, not made, and the API refuses a new one.
    await page.goto(`${app.baseUrl}/dashboard/projects`);
    await page.locator('#owner-only-note').waitFor();
    expect(await page.getByRole('button', { name: 'کلید تازه' }).count()).toBe(0);
    const createKey = 'mutation($projectId: ID!) { createApiKey(projectId: $projectId) { key } }';
    expect(refused(await gqlFromPage(page, createKey, { projectId: shop.projectId }), 'createApiKey')).toEqual({ code: 'forbidden', result: null });
    await context.close();
  });

  it('refuses a viewer the attach: the API’s refusal (forbidden, 403 over REST) shows in Persian and the payment stays pending', async () => {
    const created = await createPaymentRest(app, shop.apiKey, { amount: 180_000, orderId: 'order-viewer' });
    const payment = created.body as { id: string };
    const deposit = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: payment.id, outcome: 'base_amount' } });
    const messageId: string = deposit.body.bankMessage.id;

    // A staff member with the review queue open…
    const member = await inviteUser(app, ownerCookie, 'staff', PASSWORD);
    const { context, page } = await signedInPage(member.email, '/dashboard/test/review', { live: false });
    const candidate = page.locator(`[data-bank-message-id="${messageId}"] [data-candidate-payment-id="${payment.id}"]`);
    const attach = candidate.getByRole('button', { name: 'وصل کردن به این پرداخت' });
    await attach.waitFor();

    // …made a viewer by the owner, then tries to attach: refused by the API, said in Persian.
    await changeRole(app, ownerCookie, member.id, 'viewer');
    await attach.click();
    // Money moves only after a second look (the amount and the order shown once more).
    await candidate.getByRole('button', { name: 'بله، وصل شود' }).click();
    await expect.poll(() => candidate.getByRole('alert').textContent()).toBe('نقش شما («بیننده») اجازهٔ این کار را نمی‌دهد؛ مالک حساب می‌تواند نقش شما را تغییر دهد.');
    expect(await candidate.getByText('واریز به پرداخت وصل شد').count()).toBe(0);
    const after = await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey });
    expect(after.body.status).toBe('pending');

    // The same mutation sent from the page itself: forbidden; a decision over REST from this session: 403.
    expect(refused(await gqlFromPage(page, ATTACH, { messageId, paymentId: payment.id }), 'attachBankMessage')).toEqual({ code: 'forbidden', result: null });
    const rest = await page.evaluate(async (id) => {
      const res = await fetch(`/v1/payments/${id}/refunds`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1' },
        body: JSON.stringify({ amount: 10_000 }),
      });
      return { status: res.status, code: ((await res.json()) as { error?: { code?: string } }).error?.code };
    }, payment.id);
    expect(rest).toEqual({ status: 403, code: 'forbidden' });

    // Opened again as a viewer: the evidence is there to read, no decision form, and a line says why.
    await page.unrouteAll();
    await page.reload();
    await page.locator(`[data-bank-message-id="${messageId}"]`).waitFor();
    await page.locator('#read-only-note').waitFor();
    expect(await page.getByRole('button', { name: 'وصل کردن به این پرداخت' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('takes a role changed while the page is live at once, and stays signed in', async () => {
    const created = await createPaymentRest(app, shop.apiKey, { amount: 190_000, orderId: 'order-live-role' });
    const payment = created.body as { id: string };
    const deposit = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: payment.id, outcome: 'base_amount' } });
    const member = await inviteUser(app, ownerCookie, 'staff', PASSWORD);
    const { context, page } = await signedInPage(member.email, '/dashboard/test/review', { live: true, clock: true });
    const item = page.locator(`[data-bank-message-id="${deposit.body.bankMessage.id}"]`);
    const attach = item.locator(`[data-candidate-payment-id="${payment.id}"]`).getByRole('button', { name: 'وصل کردن به این پرداخت' });
    await attach.waitFor();

    // The server ends the session's live stream when its role changes; the page reads the role again.
    await changeRole(app, ownerCookie, member.id, 'viewer');
    await page.locator('#read-only-note').waitFor();
    expect(await attach.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/dashboard/test/review');
    // The ended stream is opened again after the page's 3 s pause (dashboard/src/live.tsx), moved past here.
    await page.clock.runFor(3_000);
    await page.locator('#live-state.on').waitFor({ timeout: 15_000 });

    // Made staff again: the decisions come back, still without signing in again.
    await changeRole(app, ownerCookie, member.id, 'staff');
    await attach.waitFor();
    expect(await page.locator('#read-only-note').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/dashboard/test/review');
    await context.close();
  });
});
