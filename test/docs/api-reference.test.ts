import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_CSP } from '../../src/http/docs-page.js';
import { request, startTestApp, type TestApp } from '../support/harness.js';
import { launchChromium } from '../support/browser.js';


describe('GET /docs, the API reference page', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('is served from this origin with a CSP that allows no inline or foreign script', async () => {
    const page = await request(app.baseUrl, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>|https?:\/\//);
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'start.js']) {
      expect((await request(app.baseUrl, 'GET', `/docs/assets/${asset}`)).status, asset).toBe(200);
    }
    expect((await request(app.baseUrl, 'GET', '/docs/assets/nope.js')).status).toBe(404);
  });

  it('renders every operation of /openapi.json in a browser, fetching nothing from elsewhere and breaking no CSP rule', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(app.baseUrl) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${app.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    const operations = await page.locator('.opblock').count();
    const doc = (await request(app.baseUrl, 'GET', '/openapi.json')).body as { paths: Record<string, object> };
    const expected = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(operations).toBe(expected);
    expect(await page.getByText('createPayment').count()).toBeGreaterThan(0);
    // Opening an operation renders its schemas and examples: still nothing refused by the CSP.
    await page.locator('#operations-Payments-createPayment .opblock-summary').click();
    await page.locator('#operations-Payments-createPayment .opblock-body').waitFor({ timeout: 10_000 });
    await page.locator('section.models').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
