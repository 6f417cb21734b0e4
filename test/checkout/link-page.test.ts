import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_CSP } from '../../src/http/checkout-page.js';
import { gqlOk, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';


let app: TestApp;
let browser: Browser;
/** The file's one phone (its renderer started once): each test opens its link in it afresh. */
let phone: Page;

beforeAll(async () => {
  const startPhone = async () => {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'fa-IR' });
    return context.newPage();
  };
  [app, phone] = await Promise.all([startTestApp(), startPhone()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const faNumber = (digits: string | number) => new Intl.NumberFormat('fa-IR').format(Number(digits));

/** A sandbox shop with one payment link of the given shape. */
async function shopWithLink(link: Record<string, unknown>) {
  const shop = await makeShop(app, { settings: { displayName: 'Acme Coffee Co.', color: '#0f766e' } });
  const slug = `link-${Date.now()}-${Math.floor(Math.random() * 1000)}`;
  await gqlOk(
    app.baseUrl,
    `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { slug } }`,
    { input: { projectId: shop.projectId, slug, title: 'کمک به کافه', ...link } },
    shop.merchantKey,
  );
  return { shop, slug };
}

async function openPhone(path: string): Promise<Page> {
  await phone.goto(`${app.baseUrl}${path}`);
  return phone;
}

async function paymentOf(shopKey: string, page: Page) {
  await page.waitForURL(/\/pay\/[A-Za-z0-9_-]{43}$/);
  await page.locator('#pending-view').waitFor({ state: 'visible' });
  const token = new URL(page.url()).pathname.split('/').pop()!;
  const list = await request(app.baseUrl, 'GET', '/v1/payments', { token: shopKey });
  return list.body.items.find((p: { token: string }) => p.token === token);
}

describe('payment-link page in a browser', () => {
  it('shows a fixed-amount link with its branding and sends the payer to the checkout page', async () => {
    // Given a link with a fixed amount and a Latin description
    const { shop, slug } = await shopWithLink({ amount: 50_000, description: 'A coffee for the team.' });

    // When the payer opens it on a phone and continues
    const page = await openPhone(`/l/${slug}`);
    expect(await page.locator('.link-title').textContent()).toBe('کمک به کافه');
    expect(await page.locator('#project-name').textContent()).toBe('Acme Coffee Co.');
    expect(await page.locator('.description').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    expect(await page.locator('.amount-rial data').textContent()).toBe(faNumber(50_000));
    expect(await page.locator('.amount-toman').textContent()).toContain(faNumber(5_000));
    expect(await page.locator('#amount').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.locator('#pay-submit').click();

    // Then a payment of that amount exists and its checkout page is shown
    const payment = await paymentOf(shop.apiKey, page);
    expect(payment).toMatchObject({ amountRequested: '50000', status: 'pending' });
  });

  it("takes the payer's amount in Persian digits, shows it in toman, refuses it outside min..max", async () => {
    const { shop, slug } = await shopWithLink({ minAmount: 20_000, maxAmount: 500_000 });
    const page = await openPhone(`/l/${slug}`);
    expect(await page.locator('#amount-hint').textContent()).toBe(`از ${faNumber(20_000)} تا ${faNumber(500_000)} ریال`);

    await page.locator('#amount').fill('۱۰۰۰');
    await page.locator('#pay-submit').click();
    expect(await page.locator('#amount-error').isVisible()).toBe(true);
    expect(await page.locator('#amount').getAttribute('aria-invalid')).toBe('true');

    await page.locator('#amount').fill('۱۲۰٬۰۰۰');
    expect(await page.locator('#amount-toman').textContent()).toBe(faNumber(12_000));
    await page.locator('#payerPhone').fill('۰۹۱۲۳۴۵۶۷۸۹');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/link-360x740.png', fullPage: true });
    await page.locator('#pay-submit').click();

    const payment = await paymentOf(shop.apiKey, page);
    expect(payment).toMatchObject({ amountRequested: '120000', payerPhone: '09123456789' });
  });
});

describe('a link in toman (currency IRT)', () => {
  it('takes its amounts in toman, stores rials, and asks the payer in toman with rials beside', async () => {
    // Given a link whose merchant works in toman: 2,000..50,000 toman
    const { shop, slug } = await shopWithLink({ currency: 'IRT', minAmount: 2_000, maxAmount: 50_000 });
    const pub = await gqlOk(app.baseUrl, `query($s: String!) { paymentLink(slug: $s) { minAmount maxAmount currency } }`, { s: slug });
    expect(pub.paymentLink).toEqual({ minAmount: '20000', maxAmount: '500000', currency: 'IRT' });

    // When the payer types 12,000 (toman) on the page
    const page = await openPhone(`/l/${slug}`);
    expect(await page.locator('label[for="amount"]').textContent()).toBe('مبلغ (تومان)');
    expect(await page.locator('#amount-hint').textContent()).toBe(`از ${faNumber(2_000)} تا ${faNumber(50_000)} تومان`);
    await page.locator('#amount').fill('۱۲۰۰۰');
    expect(await page.locator('#amount-rial').textContent()).toBe(faNumber(120_000));
    await page.locator('#pay-submit').click();

    // Then the payment asks for 120,000 rials and remembers the payer's unit
    const payment = await paymentOf(shop.apiKey, page);
    expect(payment).toMatchObject({ amountRequested: '120000', currency: 'IRT' });

    // And a fixed toman link shows toman first
    const fixed = await shopWithLink({ currency: 'IRT', amount: 5_000 });
    const page2 = await openPhone(`/l/${fixed.slug}`);
    expect(await page2.locator('.amount-main').textContent()).toContain(faNumber(5_000));
    expect(await page2.locator('.amount-main').textContent()).toContain('تومان');
  });

  it('refuses a toman amount that is out of range once in rials, naming it', async () => {
    const shop = await makeShop(app);
    const res = await gqlOk(app.baseUrl, `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { amount currency } }`, { input: { projectId: shop.projectId, slug: `t-${Date.now()}`, title: 'x', currency: 'IRT', amount: 900 } }, shop.merchantKey).catch((e: Error) => e.message);
    expect(String(res)).toMatch(/amount.*must be between 1000 and 100000000 toman/);
  });
});

describe('payment-link page over plain HTTP', () => {
  it('is a Persian page under the strict CSP, with the favicon', async () => {
    const { slug } = await shopWithLink({ amount: 50_000 });
    const res = await request(app.baseUrl, 'GET', `/l/${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CHECKOUT_CSP);
    expect(res.text).toContain('<html lang="fa" dir="rtl">');
    expect(res.text).toContain('<link rel="icon" href="/favicon.ico" sizes="any">');
    expect(res.text).toContain('<link rel="stylesheet" href="/pay/theme/0f766e.css">');
    expect((await request(app.baseUrl, 'GET', '/pay/theme/0f766e.css')).text).toBe(':root { --accent: #0f766e; --accent-ink: #ffffff; }\n');
  });

  it('answers a Persian 404 page for an unknown slug and for a link whose project is switched off', async () => {
    const unknown = await request(app.baseUrl, 'GET', '/l/no-such-link');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(unknown.text).toContain('صفحه پیدا نشد');

    const { shop, slug } = await shopWithLink({ amount: 50_000 });
    await gqlOk(app.baseUrl, `mutation($id: ID!) { updateProject(id: $id, input: { active: false }) { id } }`, { id: shop.projectId }, shop.merchantKey);
    const inactive = await request(app.baseUrl, 'GET', `/l/${slug}`);
    expect(inactive.status).toBe(404);
    expect(inactive.text).toContain('صفحه پیدا نشد');
  });
});
