import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { addUser } from '../../src/domain/users/users.js';
import type { TestApp } from '../support/harness.js';

const require = createRequire(import.meta.url);

/** The tests drive the built app (`npm install` builds it; `npm run dashboard:build` again after a change). */
export function requireBuiltDashboard(): void {
  if (!existsSync(new URL('../../dashboard/dist/index.html', import.meta.url))) {
    throw new Error('dashboard/dist is missing: run `npm run dashboard:build` first');
  }
}

/** A dashboard user added by the operator; its set-password link as a path of the test service. */
export async function inviteOwner(app: TestApp, merchantId: string): Promise<{ email: string; setPasswordPath: string }> {
  const email = `owner-${Date.now()}@shop.example.com`;
  const created = await addUser(app.deps, operatorActor, { merchantId, email, role: 'owner' });
  const url = new URL(created.setPasswordUrl);
  return { email, setPasswordPath: `${url.pathname}${url.search}` };
}

/** Every message Chromium prints about a Content-Security-Policy refusal, from every page opened. */
export function watchCsp(page: Page, into: string[]): void {
  page.on('console', (msg) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(msg.text())) into.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => {
    if (/Content Security Policy/i.test(err.message)) into.push(`${page.url()}: ${err.message}`);
  });
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * axe-core's full rule set (WCAG 2 A/AA and best practices) on the page as it is now. The engine
 * is evaluated through DevTools, so the page's CSP (own scripts only) stays on.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function expectNoHorizontalScroll(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${page.url()} is ${scrollWidth}px wide`).toBeLessThanOrEqual(width);
}
