import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { addUser } from '../../src/domain/users/users.js';
import { request, type TestApp } from '../support/harness.js';

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

/** The set-password link's page posts `{token, password}`; done here as that page would. */
export async function setPasswordByLink(app: TestApp, setPasswordPath: string, password: string): Promise<void> {
  const token = new URL(setPasswordPath, app.baseUrl).searchParams.get('token');
  const res = await request(app.baseUrl, 'POST', '/v1/session/password', { body: { token, password } });
  expect(res.status, res.text).toBe(204);
}

/** A dashboard session's cookie (`name=value`), from the same POST /v1/session the login form sends. */
export async function sessionCookie(app: TestApp, email: string, password: string): Promise<string> {
  const res = await request(app.baseUrl, 'POST', '/v1/session', { body: { email, password } });
  expect(res.status, res.text).toBe(204);
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error('POST /v1/session set no cookie');
  return cookie;
}

export type SessionGql = { status: number; data?: any; errors?: { message: string; extensions?: { code?: string; details?: Record<string, unknown> } }[] };

/** GraphQL as the dashboard sends it: the session cookie and the CSRF header. */
export async function gqlWithSession(app: TestApp, cookie: string, query: string, variables: Record<string, unknown> = {}): Promise<SessionGql> {
  const res = await request(app.baseUrl, 'POST', '/graphql', { body: { query, variables }, headers: { cookie, 'x-graphql-yoga-csrf': '1' } });
  return { status: res.status, data: res.body?.data, errors: res.body?.errors };
}

/** An owner's invitation (GraphQL inviteUser from the owner's session), its password set by the link. */
export async function inviteUser(app: TestApp, ownerCookie: string, role: 'owner' | 'staff' | 'viewer', password: string): Promise<{ id: string; email: string }> {
  const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@shop.example.com`;
  const invited = await gqlWithSession(app, ownerCookie, 'mutation($email: String!, $role: UserRole!) { inviteUser(email: $email, role: $role) { setPasswordUrl user { id } } }', { email, role });
  expect(invited.errors).toBeUndefined();
  const url = new URL(invited.data.inviteUser.setPasswordUrl);
  await setPasswordByLink(app, `${url.pathname}${url.search}`, password);
  return { id: invited.data.inviteUser.user.id, email };
}

/** An owner changes a user's role; the user's open sessions take the new role at once. */
export async function changeRole(app: TestApp, ownerCookie: string, userId: string, role: 'owner' | 'staff' | 'viewer'): Promise<void> {
  const res = await gqlWithSession(app, ownerCookie, 'mutation($id: ID!, $role: UserRole!) { updateUser(id: $id, input: { role: $role }) { id role } }', { id: userId, role });
  expect(res.errors).toBeUndefined();
  expect(res.data.updateUser.role).toBe(role);
}

/** Signs in through the login page as a person would; ends on `next` (the overview by default). */
export async function signInWithForm(page: Page, app: TestApp, email: string, password: string, next = '/dashboard'): Promise<void> {
  await page.goto(`${app.baseUrl}/dashboard/login?next=${encodeURIComponent(next)}`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'ورود' }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
}

/**
 * A GraphQL request from inside the page, as the dashboard's own script sends it (its cookie, the
 * CSRF header): what the API answers this browser's session, whatever the page chose to show.
 */
export async function gqlFromPage(page: Page, query: string, variables: Record<string, unknown> = {}): Promise<SessionGql> {
  return page.evaluate(
    async ([q, v]) => {
      const res = await fetch('/graphql', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-graphql-yoga-csrf': '1' },
        body: JSON.stringify({ query: q, variables: v }),
      });
      const body = await res.json();
      return { status: res.status, data: body.data, errors: body.errors };
    },
    [query, variables] as const,
  );
}

/** A page of the app, loaded: its heading shown and nothing left loading. */
export async function openLoaded(page: Page, app: TestApp, pathname: string): Promise<void> {
  await page.goto(`${app.baseUrl}${pathname}`);
  await page.locator('h1').first().waitFor();
  // Not expect.poll's default second: a loaded machine has taken longer to finish a page's reads.
  await expect.poll(() => page.getByText('در حال بارگذاری…').count(), { timeout: 10_000 }).toBe(0);
}

/**
 * Goes to a section as a person would: on a phone through the bottom bar's "more" sheet (which lists
 * every section), on a desktop through the side column.
 */
export async function openSection(page: Page, name: string): Promise<void> {
  const more = page.locator('#more-button');
  const side = page.getByRole('navigation', { name: 'بخش‌های داشبورد' });
  // Which one the page shows is known once its shell is drawn (right after a sign-in it may not be yet).
  await expect.poll(async () => (await more.isVisible()) || (await side.isVisible())).toBe(true);
  if (await more.isVisible()) {
    await more.click();
    await page.getByRole('dialog', { name: 'همهٔ بخش‌ها' }).getByRole('link', { name, exact: true }).click();
  } else {
    await side.getByRole('link', { name, exact: true }).click();
  }
}
