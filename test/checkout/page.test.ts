import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_CSP } from '../../src/http/checkout-page.js';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#0f766e"/><path d="M11 21l6 6 12-13" stroke="#fff" stroke-width="4" fill="none"/></svg>';
const WAITING = 'پرداخت شما در حال بررسی است؛ لطفاً صبر کنید';

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const brandedShop = (settings: Record<string, unknown> = {}) =>
  makeShop(app, {
    settings: { displayName: 'فروشگاه نمونه', color: '#0f766e', logoUrl: 'https://shop.example.com/logo.svg', supportPhone: '02112345678', ...settings },
  });

/**
 * A 360×740 phone whose clipboard the page may use; the shop's host is answered locally. With
 * `clock`, the page's timers run on Playwright's clock, which the test may hold and move.
 */
async function openPhone(token: string, onRequest?: (url: URL) => unknown, opts: { clock?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'fa-IR' });
  if (opts.clock) await context.clock.install();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
  const page = await context.newPage();
  if (onRequest) page.on('request', (req) => onRequest(new URL(req.url())));
  await page.route('https://shop.example.com/**', (route) =>
    route.request().url().endsWith('/logo.svg')
      ? route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO })
      : route.fulfill({ status: 200, contentType: 'text/html', body: '<p>back at shop</p>' }),
  );
  await page.goto(`${app.baseUrl}/pay/${token}`);
  await page.locator('#pending-view').waitFor({ state: 'visible' });
  return page;
}

/** The final message stays readable with a return link; the redirect follows it by itself. */
async function returnToShop(page: Page): Promise<URL> {
  await page.locator('#return-link').waitFor({ state: 'visible', timeout: 20_000 });
  expect(await page.locator('#return-note').textContent()).toMatch(/^[۰-۹]+ ثانیه دیگر به فروشگاه بازمی‌گردید\.$/);
  await page.locator('#return-link').click();
  return landOnShop(page);
}

async function landOnShop(page: Page): Promise<URL> {
  await page.waitForURL((url) => url.hostname === 'shop.example.com', { timeout: 20_000 });
  return new URL(page.url());
}

const faNumber = (digits: string | number) => new Intl.NumberFormat('fa-IR').format(Number(digits));

describe('checkout page in a browser', () => {
  it('shows the exact amount and the card, takes a report, and returns the payer to the shop once confirmed', async () => {
    const shop = await brandedShop();
    const created = await createPaymentRest(app, shop.apiKey, {
      amount: 1_250_000,
      orderId: 'order-77',
      callbackUrl: 'https://shop.example.com/return?cart=7#top',
    });
    expect(created.status).toBe(201);
    const payment = created.body;
    const viewFetches: string[] = [];
    const page = await openPhone(payment.token, (url) => url.pathname.startsWith('/v1/checkout/') && viewFetches.push(url.pathname));

    expect(await page.locator('#amount-rial').textContent()).toBe(faNumber(payment.amountFinal));
    expect(await page.locator('#amount-toman').textContent()).toBe(faNumber(Number(payment.amountFinal) / 10));
    expect(await page.locator('#card-number').textContent()).toBe('6104 3378 1234 5678');
    expect(await page.locator('#project-name').textContent()).toBe('فروشگاه نمونه');
    expect(await page.locator('#sandbox-badge').isVisible()).toBe(true);
    expect(await page.locator('#countdown').textContent()).toMatch(/^[۰-۹]{2}:[۰-۹]{2}$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.locator('#copy-card').click();
    await expect.poll(() => page.locator('#copy-card').textContent()).toBe('کپی شد');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('6104337812345678');
    await page.locator('#copy-amount').click();
    await expect.poll(() => page.locator('#copy-amount').textContent()).toBe('کپی شد');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(payment.amountFinal);

    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/checkout-360x740.png', fullPage: true });

    await page.locator('#payerCardLast4').fill('۱۲۳۴');
    await page.locator('#payerTrackingNumber').fill('987654321');
    await page.locator('#report-submit').click();
    await page.locator('#reported-note').waitFor({ state: 'visible' });
    const record = await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey });
    expect(record.body).toMatchObject({ payerCardLast4: '1234', payerTrackingNumber: '987654321' });
    expect(record.body.payerReportedPaidAt).not.toBeNull();

    const deposit = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: payment.id, outcome: 'match' } });
    expect(deposit.status).toBe(200);

    await page.locator('#result-title', { hasText: 'پرداخت شما تأیید شد' }).waitFor({ timeout: 20_000 });
    const back = await returnToShop(page);
    expect(back.pathname).toBe('/return');
    expect(back.hash).toBe('#top');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      cart: '7',
      service_token: payment.token,
      service_status: 'confirmed',
      service_ref: payment.id,
      order_id: 'order-77',
    });
    // The first view came with the page and the confirmation over the subscription: only the report was fetched.
    expect(viewFetches).toEqual([`/v1/checkout/${payment.token}/report`]);
    await page.context().close();
  });

  it('cancels in two taps and returns the payer with service_status=canceled and an empty order_id', async () => {
    const shop = await brandedShop();
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 80_000 })).body;
    const page = await openPhone(payment.token, undefined, { clock: true });
    // The page's time held from here: its return counts down only as the test moves the clock.
    await page.clock.pauseAt(Date.now() + 1_000);

    await page.locator('#cancel-btn').click();
    expect(await page.locator('#cancel-btn').textContent()).toBe('برای لغو پرداخت دوباره بزنید');
    const stillPending = await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey });
    expect(stillPending.body.status).toBe('pending');
    await page.locator('#cancel-btn').click();

    // Nobody clicks: the page returns by itself once the message has been up for eight seconds.
    await page.locator('#result-view').waitFor({ state: 'visible' });
    expect(await page.locator('#result-title').textContent()).toBe('پرداخت لغو شد');
    await page.clock.runFor(7_000);
    expect(await page.locator('#return-note').textContent()).toBe('۱ ثانیه دیگر به فروشگاه بازمی‌گردید.');
    expect(new URL(page.url()).pathname).toBe(`/pay/${payment.token}`);
    await page.clock.runFor(1_000);
    const back = await landOnShop(page);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      service_token: payment.token,
      service_status: 'canceled',
      service_ref: payment.id,
      order_id: '',
    });
    const record = await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey });
    expect(record.body.status).toBe('canceled');
    await page.context().close();
  });

  it('asks a payer who reported paying to wait after expiry, then returns them once a late deposit confirms', async () => {
    const shop = await brandedShop({ lateWindowSeconds: 600 });
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 90_000, orderId: 'late-1' })).body;
    const page = await openPhone(payment.token);
    await page.locator('#payerCardLast4').fill('4321');
    await page.locator('#report-submit').click();
    await page.locator('#reported-note').waitFor({ state: 'visible' });

    // Its time runs out now (its deadline moved to this moment): the service expires it, and the
    // page, told so while it is open, asks the payer who reported paying to wait.
    await app.deps.prisma.payment.update({ where: { id: payment.id }, data: { expiresAt: new Date() } });
    await page.getByText(WAITING).waitFor({ state: 'visible', timeout: 20_000 });
    const expired = await request(app.baseUrl, 'GET', `/v1/payments/${payment.id}`, { token: shop.apiKey });
    expect(expired.body.status).toBe('expired');
    expect(new URL(page.url()).pathname).toBe(`/pay/${payment.token}`);

    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: payment.id, outcome: 'match' } });
    const back = await returnToShop(page);
    expect(back.searchParams.get('service_status')).toBe('confirmed');
    expect(back.searchParams.get('order_id')).toBe('late-1');
    await page.context().close();
  }, 45_000);

  it('ends a payment-link checkout on a receipt with its code instead of redirecting', async () => {
    const shop = await brandedShop();
    const link = `tip-jar-${Date.now()}`;
    await gqlOk(
      app.baseUrl,
      `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { slug } }`,
      { input: { projectId: shop.projectId, slug: link, title: 'کمک به کافه', amount: 50_000 } },
      shop.merchantKey,
    );
    const made = await request(app.baseUrl, 'POST', `/v1/links/${link}/payments`, { body: {} });
    expect(made.status).toBe(201);
    const page = await openPhone(made.body.token);
    expect(await page.locator('#link-title').textContent()).toBe('کمک به کافه');

    await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { token: made.body.token, outcome: 'match' } });
    await page.locator('#receipt').waitFor({ state: 'visible' });
    expect(await page.locator('#result-title').textContent()).toBe('پرداخت شما تأیید شد');
    expect(await page.locator('#receipt-code').textContent()).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(new URL(page.url()).pathname).toBe(`/pay/${made.body.token}`);
    await page.context().close();
  });

  it('answers a Persian 404 page when the token names no payment', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const res = await page.goto(`${app.baseUrl}/pay/${'Z'.repeat(43)}`);
    expect(res?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('صفحه پیدا نشد');
    await context.close();
  });

  it('paints the whole first view on the server, so nothing shifts when the script takes over', async () => {
    const shop = await brandedShop({ displayName: 'Acme Coffee Co.' });
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 1_250_000, description: 'Order 42: two flat whites.' })).body;
    const html = (await request(app.baseUrl, 'GET', `/pay/${payment.token}`)).text;
    expect(html).toContain(`>${faNumber(payment.amountFinal)}</data>`);
    expect(html).toContain('6104 3378 1234 5678');

    const page = await openPhone(payment.token);
    await page.waitForTimeout(500);
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let sum = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) sum += (entry as unknown as { value: number }).value;
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(sum), 300);
        }),
    );
    expect(shift).toBe(0);
    await page.context().close();
  });

  it('sets Latin merchant text left-to-right, so its full stop ends the sentence', async () => {
    const shop = await brandedShop({ displayName: 'Acme Coffee Co.', note: 'Open daily 8-20.' });
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 300_000, description: 'Order 42: two flat whites.' })).body;
    const page = await openPhone(payment.token);
    const direction = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).direction);
    expect(await direction('#description')).toBe('ltr');
    expect(await direction('#project-name')).toBe('ltr');
    expect(await direction('#project-note')).toBe('ltr');
    expect(await direction('#amount-title')).toBe('rtl');
    expect(await page.locator('#holder-name').evaluate((el) => el.tagName)).toBe('BDI');
    await page.context().close();
  });
});

describe('checkout page over plain HTTP', () => {
  const TOKEN = 'A'.repeat(40) + '_-9';

  it('serves a right-to-left Persian page with the token in data-token, the favicon and the strict headers', async () => {
    const shop = await makeShop(app);
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 60_000 })).body;
    const res = await request(app.baseUrl, 'GET', `/pay/${payment.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CHECKOUT_CSP);
    expect(CHECKOUT_CSP).toContain("script-src 'self'; style-src 'self'; img-src 'self' https:");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.text).toContain('<html lang="fa" dir="rtl">');
    expect(res.text).toContain(`data-token="${payment.token}"`);
    expect(res.text).toContain('<link rel="icon" href="/favicon.ico" sizes="any">');
    // The only script without src is the JSON data block, which never runs.
    expect(res.text.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toEqual(['<script type="application/json" id="initial-data">']);
    expect(res.text).not.toMatch(/<style|\sstyle=/);
    const favicon = await fetch(`${app.baseUrl}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toBe('image/x-icon');
    expect(Buffer.from(await favicon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  });

  it('answers 404 pages for a malformed token and unknown paths under /pay/', async () => {
    const bad = await request(app.baseUrl, 'GET', '/pay/bad!token');
    expect(bad.status).toBe(404);
    expect(bad.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(bad.headers.get('content-security-policy')).toBe(CHECKOUT_CSP);
    expect((await request(app.baseUrl, 'GET', `/pay/${TOKEN}x`)).status).toBe(404);
    const unknown = await request(app.baseUrl, 'GET', `/pay/${TOKEN}`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('صفحه پیدا نشد');
    const asset = await request(app.baseUrl, 'GET', '/pay/assets/nope.js');
    expect(asset.status).toBe(404);
    expect(asset.headers.get('content-security-policy')).toBe(CHECKOUT_CSP);
  });

  it('serves its own script and stylesheet with their content types', async () => {
    const js = await request(app.baseUrl, 'GET', '/pay/assets/checkout.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    const css = await request(app.baseUrl, 'GET', '/pay/assets/checkout.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });
});
