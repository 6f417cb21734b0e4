import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../../src/http/dashboard.js';
import { createPaymentRest, gqlOk, makeMerchant, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';
import { Receiver } from '../support/receiver.js';
import { axeViolations, expectNoHorizontalScroll, inviteOwner, openLoaded, openSection, requireBuiltDashboard, watchCsp } from './support.js';

const PASSWORD = 'a-long-dashboard-password';
const PHONE = { width: 360, height: 740 };

let app: TestApp;
let browser: Browser;
let shop: Awaited<ReturnType<typeof makeShop>>;
let owner: { email: string; setPasswordPath: string };
let signedIn: BrowserContext;
let receiver: Receiver | undefined;
const cspErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
  const merchant = await makeMerchant(app, { name: 'فروشگاه نمونه' });
  shop = await makeShop(app, { merchantKey: merchant.merchantKey });
  owner = await inviteOwner(app, merchant.merchantId);
});
afterAll(async () => {
  await receiver?.stop();
  await browser?.close();
  await app?.stop();
});

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  watchCsp(page, cspErrors);
  return page;
}

const open = (page: Page, path: string) => openLoaded(page, app, path);

const pendingPayment = async (orderId: string, amount = 150_000) => {
  const created = await createPaymentRest(app, shop.apiKey, { amount, orderId });
  expect(created.status).toBe(201);
  return created.body as { id: string; amountFinal: string; amountRequested: string };
};

const simulate = (paymentId: string, outcome: string) =>
  request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId, outcome } });

describe('the dashboard is served as a single-page app with its own CSP', () => {
  it('answers every deep link with index.html (no-cache) and hashed assets for a year, compressed', async () => {
    const index = await request(app.baseUrl, 'GET', '/dashboard/payments/2b0c5d61-6c0b-4a43-9e0e-3f1f3c7b1a10', { headers: { 'accept-encoding': 'gzip' } });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(index.headers.get('x-frame-options')).toBe('DENY');
    expect(index.text).toContain('<html lang="fa" dir="rtl">');
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(index.text)?.[1];
    expect(script).toBeDefined();
    const asset = await request(app.baseUrl, 'GET', script!, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect((await request(app.baseUrl, 'GET', '/dashboard/assets/missing-0000.js')).status).toBe(404);
    for (const path of ['/dashboard', '/dashboard/login', '/dashboard/review', '/dashboard/devices', '/dashboard/set-password?token=x']) {
      expect((await request(app.baseUrl, 'GET', path)).status, path).toBe(200);
    }
  });
});

describe('the dashboard’s JavaScript stays small', () => {
  it('loads at most 250 KB compressed before the first page shows, and every chunk together is under it too', () => {
    const dist = new URL('../../dashboard/dist/', import.meta.url);
    const html = readFileSync(new URL('index.html', dist), 'utf8');
    // What index.html loads at once: the entry module and the chunks it preloads.
    const initial = [...html.matchAll(/(?:src|href)="\/dashboard\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(initial.length).toBeGreaterThanOrEqual(1);
    const gz = (file: string) => gzipSync(readFileSync(new URL(file, dist)), { level: 6 }).length;
    const initialBytes = initial.reduce((sum, file) => sum + gz(file), 0);
    const all = readdirSync(new URL('assets/', dist)).filter((f) => f.endsWith('.js'));
    const allBytes = all.reduce((sum, file) => sum + gz(`assets/${file}`), 0);
    // Each page is its own chunk: the first load does not carry the others.
    expect(all.length).toBeGreaterThan(initial.length + 10);
    expect(initialBytes).toBeLessThanOrEqual(250 * 1024);
    expect(allBytes).toBeLessThanOrEqual(250 * 1024);
  });
});

describe('the dashboard in a browser', () => {
  it('sets the password from the invitation link', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
    const page = await newPage(context);
    await open(page, owner.setPasswordPath);
    await expectNoHorizontalScroll(page, PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="confirm"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'ثبت گذرواژه' }).click();
    await page.getByRole('heading', { name: 'گذرواژه ثبت شد' }).waitFor();
    await context.close();
  });

  it('sends a deep link without a session to the login page, and back to it after signing in', async () => {
    const payment = await pendingPayment('order-login');
    signedIn = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
    const page = await newPage(signedIn);
    // The shop is a sandbox project: its payments are on the test side (the mirror /dashboard/test/…).
    await page.goto(`${app.baseUrl}/dashboard/test/payments`);
    await page.waitForURL((url) => url.pathname === '/dashboard/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/test/payments');
    await expectNoHorizontalScroll(page, PHONE.width);
    expect(await axeViolations(page)).toEqual([]);

    await page.locator('input[name="email"]').fill(owner.email);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'ورود' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/test/payments');
    const row = page.locator(`[data-payment-id="${payment.id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('pending');
    expect(await page.locator('#signed-in-as').textContent()).toBe(owner.email);
    await page.close();
  });

  it('turns a payment row confirmed live when its deposit arrives, without reloading', async () => {
    const payment = await pendingPayment('order-live');
    const page = await newPage(signedIn);
    await open(page, '/dashboard/test/payments');
    const row = page.locator(`[data-payment-id="${payment.id}"]`);
    expect(await row.getAttribute('data-status')).toBe('pending');
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.locator('#live-state.on').waitFor();

    expect((await simulate(payment.id, 'match')).status).toBe(200);

    await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('confirmed');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await page.close();
  });

  it('attaches a deposit from the review queue to its payment in one step', async () => {
    const payment = await pendingPayment('order-review', 230_000);
    const deposit = await simulate(payment.id, 'base_amount');
    const messageId: string = deposit.body.bankMessage.id;
    expect(deposit.body.bankMessage.status).toBe('needs_review');
    const page = await newPage(signedIn);
    await open(page, '/dashboard/test/review');
    expect(Number(await page.locator('#attention-count').getAttribute('data-count'))).toBeGreaterThanOrEqual(1);

    const item = page.locator(`[data-bank-message-id="${messageId}"]`);
    const candidate = item.locator(`[data-candidate-payment-id="${payment.id}"]`);
    await candidate.getByRole('textbox', { name: 'یادداشت (اختیاری)' }).fill('code left out by the payer');
    await candidate.getByRole('button', { name: 'وصل کردن به این پرداخت' }).click();
    // Nothing runs yet: the decision asks once more, with the deposit's amount and the order.
    const ask = candidate.locator('[data-confirm-step]');
    await ask.waitFor();
    expect(await ask.textContent()).toContain('order-review');
    expect(await ask.textContent()).toContain('تومان');
    expect((await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey })).body.status).toBe('pending');
    await ask.getByRole('button', { name: 'بله، وصل شود' }).click();

    await item.waitFor({ state: 'detached', timeout: 10_000 });
    const after = await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey });
    expect(after.body).toMatchObject({ status: 'confirmed', confirmationSource: 'manual', bankMessageId: messageId, manualNote: 'code left out by the payer' });
    await page.close();
  });

  it('records a refund from a payment’s page: the refund shows on the page and in the API', async () => {
    const payment = await pendingPayment('order-refund', 300_000);
    expect((await simulate(payment.id, 'match')).status).toBe(200);
    const page = await newPage(signedIn);
    await open(page, `/dashboard/payments/${payment.id}`);
    const article = page.locator(`article[data-payment-id="${payment.id}"]`);
    expect(await article.getAttribute('data-status')).toBe('confirmed');

    // Amounts are typed in the unit shown (toman), Persian digits welcome; the card with its spaces.
    const form = page.locator('form.refund');
    await form.getByLabel('مبلغ بازپرداخت به تومان').fill('۵۰۰۰');
    await form.getByLabel('کارت یا شبای مقصد').fill('6037 9912 3456 7893');
    await form.getByLabel('شمارهٔ پیگیری بانک').fill('778812');
    await form.getByLabel('یادداشت').fill('بازگشت بخشی از مبلغ');
    await form.getByRole('button', { name: 'ثبت بازپرداخت' }).click();
    await form.getByRole('button', { name: 'بله، ثبت شود' }).click();
    await form.getByText('بازپرداخت ثبت شد.').waitFor();

    // The page reads the payment again: the refund listed, the refunded sum in its summary.
    const refunds = page.getByRole('region', { name: 'بازپرداخت‌ها' });
    await refunds.waitFor();
    expect(await refunds.textContent()).toContain('۵٬۰۰۰ تومان');
    expect(await refunds.textContent()).toContain('7893'); // only the card's last four are kept
    const after = await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey });
    expect(after.body.refundedAmount).toBe('50000');
    const listed = await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { refunds { amount destinationCard reference note } } }`, { id: payment.id }, shop.merchantKey);
    expect(listed.payment.refunds).toEqual([{ amount: '50000', destinationCard: expect.stringMatching(/7893$/), reference: '778812', note: 'بازگشت بخشی از مبلغ' }]);

    // More than what is left is refused by the API, in Persian, with what is left.
    await form.getByLabel('مبلغ بازپرداخت به تومان').fill('1000000');
    await form.getByRole('button', { name: 'ثبت بازپرداخت' }).click();
    await form.getByRole('button', { name: 'بله، ثبت شود' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('جمع بازپرداخت‌ها از مبلغ دریافتی بیشتر می‌شود.');
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('filters payments by amount (typed in toman) and by a card’s last four, in the URL; the cards page shows each cap’s use', async () => {
    // A second project whose card ends in 4321, capped at 500,000 toman and 10 payments a day.
    const second = await makeShop(app, {
      merchantKey: shop.merchantKey,
      settings: { name: 'فروشگاه دوم' },
      card: { cardNumber: '6219861012344321', dailyAmountCap: 5_000_000, dailyCountCap: 10 },
    });
    const onCard = (await createPaymentRest(app, second.apiKey, { amount: 173_000, orderId: 'order-card' })).body as { id: string; amountFinal: string };
    const byAmount = await pendingPayment('order-amount', 187_000);
    await pendingPayment('order-other', 150_000);
    const page = await newPage(signedIn);
    await open(page, '/dashboard/test/payments');
    const listed = () => page.locator('ul[aria-label="پرداخت‌ها"] [data-payment-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-payment-id')));
    const form = page.getByRole('form', { name: 'پالایش پرداخت‌ها' });

    // 18,700 toman in Persian digits is 187,000 rials: the requested amount of one payment.
    await form.getByLabel('مبلغ به تومان').fill('۱۸٬۷۰۰');
    await form.getByRole('button', { name: 'نمایش' }).click();
    await page.waitForURL((url) => url.searchParams.get('amount') === '187000');
    await expect.poll(listed).toEqual([byAmount.id]);
    expect(await form.getByLabel('مبلغ به تومان').inputValue()).toBe('۱۸۷۰۰');
    expect(await axeViolations(page)).toEqual([]);

    await form.getByRole('button', { name: 'پاک کردن' }).click();
    await expect.poll(async () => (await listed()).length).toBeGreaterThan(2);
    await form.getByLabel('چهار رقم آخر کارت').fill('۴۳۲۱');
    await form.getByRole('button', { name: 'نمایش' }).click();
    await page.waitForURL((url) => url.searchParams.get('card') === '4321');
    await expect.poll(listed).toEqual([onCard.id]);
    // The same filters from a bookmarked address.
    await open(page, `/dashboard/test/payments?amount=${onCard.amountFinal}&card=4321`);
    await expect.poll(listed).toEqual([onCard.id]);
    await open(page, `/dashboard/test/payments?amount=${onCard.amountFinal}&card=5678`);
    await page.getByText('پرداختی با این پالایه نیست.').waitFor();

    // The cards page: today's use against the daily caps, as the API counts it.
    const used = await gqlOk(app.baseUrl, `query($id: ID!) { node(id: $id) { ... on Card { usedToday { amount count } } } }`, { id: second.cardId }, shop.merchantKey);
    expect(used.node.usedToday).toEqual({ amount: onCard.amountFinal, count: 1 });
    await open(page, '/dashboard/test/cards');
    const day = page.locator(`li[data-card-id="${second.cardId}"] [data-cap="day"]`);
    const digits = (n: bigint) => new Intl.NumberFormat('fa-IR').format(n);
    expect(await day.textContent()).toBe(`${digits(BigInt(onCard.amountFinal) / 10n)} از ۵۰۰٬۰۰۰ تومان امروز، ۱ از ۱۰ پرداخت`);
    expect(await day.getAttribute('data-used-amount')).toBe(onCard.amountFinal);
    expect(await page.locator(`li[data-card-id="${second.cardId}"] [data-cap="month"]`).textContent()).toContain('این ماه، ۱ پرداخت (بدون سقف)');
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('sends a test webhook for the project it shows, with the owner’s session', async () => {
    // Kept till the end of the file: later payment events of the shop go there too.
    receiver = await new Receiver().start();
    await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: shop.projectId, u: `${receiver.url}/dashboard-test` }, shop.merchantKey);
    const page = await newPage(signedIn);
    await open(page, '/dashboard/test/webhooks');
    const panel = page.getByRole('region', { name: 'Shop (آزمایشی)' });
    await panel.getByRole('button', { name: 'ارسال آزمایشی' }).click();
    await panel.getByRole('status').filter({ hasText: 'رویداد آزمایشی رسید' }).waitFor();
    const [hit] = await receiver.waitFor(1);
    expect(hit!.path).toBe('/dashboard-test');
    expect(hit!.headers['x-service-event']).toBe('payment.confirmed');
    // The delivery joins the page's latest deliveries, marked as a test.
    const deliveryId = await panel.getByRole('status').filter({ hasText: 'رویداد آزمایشی رسید' }).getAttribute('data-test-delivery-id');
    await page.locator(`[data-delivery-id="${deliveryId}"]`).getByText('آزمایشی', { exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('warns on every page while a phone is offline', async () => {
    const created = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "گوشی پشتیبان" }) { device { id } } }`, {}, shop.merchantKey);
    const deviceId: string = created.createDevice.device.id;
    const page = await newPage(signedIn);
    await open(page, '/dashboard/devices');
    expect(await page.locator(`#offline-banner [data-device-id="${deviceId}"]`).textContent()).toContain('گوشی پشتیبان');
    expect(await page.locator(`li[data-device-id="${deviceId}"]`).getAttribute('data-online')).toBe('false');
    await page.close();
  });

  // Every page checked by axe: a loaded runner needs more than a minute for all of them.
  it('shows every main page at 360×740 without horizontal scroll and with no axe violation', { timeout: 120_000 }, async () => {
    const payment = await pendingPayment('order-pages');
    await simulate(payment.id, 'underpaid');
    const page = await newPage(signedIn);
    mkdirSync('test-results', { recursive: true });
    // Every page of docs/dashboard.md signed in (login and set-password are checked above, signed out).
    const paths = [
      '/dashboard', // overview
      '/dashboard/payments',
      `/dashboard/payments/${payment.id}`, // a payment
      '/dashboard/review',
      '/dashboard/devices',
      '/dashboard/cards',
      '/dashboard/webhooks',
      '/dashboard/links',
      '/dashboard/projects', // projects and keys
      '/dashboard/credit', // credit and fee ledger
      '/dashboard/users',
      '/dashboard/audit',
      '/dashboard/security', // two-factor sign-in
      '/dashboard/exports',
    ];
    const problems: Record<string, string[]> = {};
    for (const path of paths) {
      await open(page, path);
      await expectNoHorizontalScroll(page, PHONE.width);
      const violations = await axeViolations(page);
      if (violations.length) problems[path] = violations;
      const name = path.split('/')[2] ?? 'overview';
      await page.screenshot({ path: `test-results/dashboard-${name === 'payments' && path.length > 20 ? 'payment' : name}-360.png`, fullPage: true });
    }
    expect(problems).toEqual({});

    // The exports page ends on /dashboard/exports: its links download with the session cookie,
    // every project of the side shown by default, and never the other side's payments.
    const download = async () => {
      const href = (await page.locator('[data-export="payments-csv"]').getAttribute('href'))!;
      const csv = await signedIn.request.get(`${app.baseUrl}${href}`);
      expect(csv.status()).toBe(200);
      expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
      return { query: new URL(href, app.baseUrl).searchParams, text: await csv.text() };
    };
    const live = await download();
    expect([live.query.get('mode'), live.query.get('projectId')]).toEqual(['live', null]);
    expect(live.text, 'the shop is a sandbox project: none of its payments on the live side').not.toContain('order-pages');
    await open(page, '/dashboard/test/exports');
    const test = await download();
    expect([test.query.get('mode'), test.query.get('projectId')]).toEqual(['test', null]);
    expect(test.text).toContain('order-pages');
    await page.close();
  });

  it('fits a desktop width too, and shows amounts in rials on demand', async () => {
    const payment = await pendingPayment('order-units', 120_000);
    const page = await newPage(signedIn);
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page, '/dashboard/test/payments');
    await expectNoHorizontalScroll(page, 1280);
    const amount = page.locator(`[data-payment-id="${payment.id}"] .amount`);
    const digits = (n: string) => new Intl.NumberFormat('fa-IR').format(BigInt(n));
    expect(await amount.textContent()).toBe(`${digits(String(BigInt(payment.amountFinal) / 10n))} تومان`);
    await page.getByRole('button', { name: 'نمایش به ریال' }).click();
    expect(await amount.textContent()).toBe(`${digits(payment.amountFinal)} ریال`);
    await page.getByRole('button', { name: 'نمایش به تومان' }).click();
    await page.screenshot({ path: 'test-results/dashboard-1280.png' });
    await page.close();
  });

  it('the audit log shows one side: the sandbox shop’s events under test only, merchant-wide ones on both', async () => {
    const shopEvent = await app.deps.prisma.auditEvent.findFirstOrThrow({ where: { projectId: shop.projectId } });
    const { merchantId } = await app.deps.prisma.project.findUniqueOrThrow({ where: { id: shop.projectId } });
    const merchantWide = await app.deps.prisma.auditEvent.findFirstOrThrow({ where: { merchantId, projectId: null }, orderBy: { at: 'desc' } });
    const page = await newPage(signedIn);
    const shown = async (path: string) => {
      await open(page, path);
      await page.locator('[data-audit-id]').first().waitFor();
      return page.locator('[data-audit-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-audit-id')));
    };
    const live = await shown('/dashboard/audit');
    expect(live).toContain(merchantWide.id);
    expect(live).not.toContain(shopEvent.id);
    const test = await shown('/dashboard/test/audit');
    expect(test).toContain(merchantWide.id);
    expect(test).toContain(shopEvent.id);
    await page.close();
  });

  it('keeps the shell and offers a reload when a page’s chunk cannot be fetched', async () => {
    const page = await newPage(signedIn);
    await open(page, '/dashboard');
    // The audit page's file gone (a deployment since this tab loaded, or the network down).
    await page.route(/\/dashboard\/assets\/audit-[^/]+\.js$/, (route) => route.abort());
    await openSection(page, 'گزارش تغییرات');
    await page.getByRole('alert').filter({ hasText: 'این صفحه بار نشد' }).waitFor();
    expect(await page.getByRole('button', { name: 'بارگذاری دوباره' }).count()).toBe(1);
    expect(await page.getByRole('navigation').count()).toBe(1);
    // Another page still opens from the same tab.
    await openSection(page, 'خروجی‌ها');
    await page.getByRole('heading', { name: 'خروجی‌ها', level: 1 }).waitFor();
    await page.close();
  });

  it('signs out: the session ends at the server, and the next page asks for the login again', async () => {
    const page = await newPage(signedIn);
    await open(page, '/dashboard');
    const cookies = await signedIn.cookies(app.baseUrl);
    const session = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect(session).not.toBe('');
    await page.getByRole('button', { name: 'خروج' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/login');
    await page.locator('input[name="email"]').waitFor();
    // The session cookie is gone; the device cookie stays (180 days), so that failures from other
    // addresses never refuse this browser's next sign-in (docs/security.md, sign-in threats).
    expect((await signedIn.cookies(app.baseUrl)).map((c) => c.name)).toEqual(['gw_device']);

    // The cookie as it was, sent again (a copy kept elsewhere): the API no longer knows it.
    const replay = await request(app.baseUrl, 'POST', '/graphql', { body: { query: '{ users { id } }' }, headers: { cookie: session, 'x-graphql-yoga-csrf': '1' } });
    expect(replay.body.errors[0].extensions.code).toBe('unauthorized');
    expect(replay.body.data?.users ?? null).toBeNull();

    await page.goto(`${app.baseUrl}/dashboard/review`);
    await page.waitForURL((url) => url.pathname === '/dashboard/login' && url.searchParams.get('next') === '/dashboard/review');
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('printed no Content-Security-Policy error on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
