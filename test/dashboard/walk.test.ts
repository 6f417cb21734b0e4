import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { startDemo } from '../../src/flows/demo-activity.js';
import { addMerchantCredit } from '../../src/domain/merchants/merchants.js';
import { gqlOk, request, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';
import { axeViolations, expectNoHorizontalScroll, openLoaded, requireBuiltDashboard, signInWithForm, watchCsp } from './support.js';

/**
 * The demo that `npm start` seeds (a sandbox project with a day of activity) beside a live project
 * with a phone, a card and a payment, walked page by page at 360×740, live and test (the mirror
 * /dashboard/test/…): every word a merchant reads is Persian, and what is data (names, order ids,
 * emails, SMS texts, URLs, keys, card masks) sits inside an element marked dir="ltr" or
 * translate="no". One browser, one session; axe and the width are checked on the pages this issue
 * added (dashboard.test.ts checks the others).
 */
const PHONE = { width: 360, height: 740 };

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let demo: Awaited<ReturnType<typeof startDemo>>;
let livePaymentId: string;
let testPaymentId: string;
const cspErrors: string[] = [];

beforeAll(async () => {
  requireBuiltDashboard();
  [app, browser] = await Promise.all([startTestApp({ env: { PUBLIC_BASE_URL: 'http://localhost:3000' } }), launchChromium()]);
  demo = await startDemo(app.deps, operatorActor);
  const device = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Shop phone" }) { token device { id } } }`, {}, demo.merchantKey);
  await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: device.createDevice.token });
  const live = await gqlOk(app.baseUrl, `mutation { createProject(input: { name: "Main shop", sandbox: false }) { project { id } apiKey } }`, {}, demo.merchantKey);
  await gqlOk(
    app.baseUrl,
    `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`,
    { input: { projectId: live.createProject.project.id, deviceId: device.createDevice.device.id, bankCode: 'mellat', cardNumber: '6104339988776658', holderName: 'Sara Ahmadi', dailyCountCap: 50 } },
    demo.merchantKey,
  );
  await addMerchantCredit(app.deps, operatorActor, { merchantId: demo.merchantId, amount: '10000000' });
  const created = await request(app.baseUrl, 'POST', '/v1/payments', { token: live.createProject.apiKey, body: { amount: 120_000, orderId: 'live-order-1', callbackUrl: 'https://shop.example.com/back' } });
  expect(created.status, created.text).toBe(201);
  livePaymentId = created.body.id;
  const sandboxPayments = await gqlOk(app.baseUrl, `query { payments(orderId: "demo-1002", first: 1) { edges { node { id } } } }`, {}, demo.merchantKey);
  testPaymentId = sandboxPayments.payments.edges[0].node.id;
  context = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
  context.setDefaultTimeout(10_000);
  page = await context.newPage();
  watchCsp(page, cspErrors);
  await signInWithForm(page, app, demo.ownerEmail, demo.ownerPassword);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Every Latin word the page shows (text, and the labels a screen reader reads) outside dir="ltr" / translate="no". */
async function latinOutsideData(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const found: string[] = [];
    const isData = (el: Element | null) => Boolean(el?.closest('[dir="ltr"], [translate="no"]'));
    const latin = /[A-Za-z]{1,}[A-Za-z0-9_.\-]*/g;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, noscript') || isData(parent)) continue;
      for (const m of node.textContent?.match(latin) ?? []) found.push(`${m} (in «${node.textContent?.trim().slice(0, 60)}»)`);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (isData(el)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        for (const m of el.getAttribute(name)?.match(latin) ?? []) found.push(`${m} (${name} «${el.getAttribute(name)}»)`);
      }
    }
    return found;
  });
}

const PAGES = ['', '/payments', '/review', '/devices', '/devices/new', '/cards', '/cards/new', '/webhooks', '/links', '/projects', '/credit', '/users', '/security', '/chat', '/audit', '/exports'];
const NEW_PAGES = new Set(['', '/devices/new', '/cards/new', '/projects']);

describe('every page of the demo, live and test, speaks Persian at 360×740', () => {
  it('shows no Latin word outside data elements, on any page, in either mode', { timeout: 90_000 }, async () => {
    const problems: Record<string, string[]> = {};
    for (const mode of ['', '/test']) {
      const paths = [...PAGES, `/payments/${mode ? testPaymentId : livePaymentId}`];
      for (const path of paths) {
        const pathname = `/dashboard${mode}${path}`;
        await openLoaded(page, app, pathname);
        // The "more" sheet is part of every page: its words count too.
        const words = await latinOutsideData(page);
        if (words.length) problems[pathname] = [...new Set(words)];
        await expectNoHorizontalScroll(page, PHONE.width);
        if (NEW_PAGES.has(path) && mode === '') {
          const violations = await axeViolations(page);
          if (violations.length) problems[`${pathname} (axe)`] = violations;
        }
      }
    }
    const signedOut = await browser.newContext({ viewport: PHONE, locale: 'fa-IR' });
    const login = await signedOut.newPage();
    await login.goto(`${app.baseUrl}/dashboard/login`);
    await login.locator('h1').waitFor();
    const words = await latinOutsideData(login);
    if (words.length) problems['/dashboard/login'] = words;
    await signedOut.close();
    expect(problems).toEqual({});
    expect(cspErrors).toEqual([]);
  });
});
