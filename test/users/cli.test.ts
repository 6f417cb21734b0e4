import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMerchant, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { runTs } from '../support/process.js';
import { cookieOf, gqlOkAs, setPassword, signIn, tokenOfUrl, USERS_ENV } from './support.js';

// Operator CLI for dashboard users: `merchant user add` prints one JSON object with the user id and
// a one-time set-password link; `demo` includes the demo owner's email and a fresh password.
// Each command is a process of its own; tests that share nothing but the database run at once.

let app: TestApp;
const PUBLIC_BASE_URL = 'https://pay.example.com';
const cli = (...args: string[]) => runTs('src/cli/index.ts', args, testEnv(app.databaseUrl, { PUBLIC_BASE_URL }));

beforeAll(async () => {
  app = await startTestApp({ env: USERS_ENV });
});
afterAll(() => app.stop());

describe.concurrent('merchant user add', { timeout: 120_000 }, () => {
  it('prints {userId, setPasswordUrl}: a link to the dashboard’s set-password page that sets the password once', async () => {
    const { merchantId } = await makeMerchant(app, { name: 'CLI users' });
    const res = await cli('merchant', 'user', 'add', '--id', merchantId, '--email', 'Boss@Shop.Example.com', '--role', 'owner', '--json');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ userId: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'boss@shop.example.com', role: 'owner', merchantId });
    expect(out.setPasswordUrl).toMatch(/^https:\/\/pay\.example\.com\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);

    const token = tokenOfUrl(out.setPasswordUrl);
    expect((await setPassword(app, token, 'owner-password-1')).status).toBe(204);
    expect((await setPassword(app, token, 'owner-password-2')).status).toBe(400);
    const signedIn = await signIn(app, 'boss@shop.example.com', 'owner-password-1');
    expect(signedIn.status).toBe(204);
    const viewer = await gqlOkAs(app, cookieOf(signedIn), `{ viewer { user { id role } merchant { id } } }`);
    expect(viewer.viewer).toEqual({ user: { id: out.userId, role: 'owner' }, merchant: { id: merchantId } });
  });

  it('answers one JSON error for a taken email, a bad role or an unknown merchant', async () => {
    const { merchantId } = await makeMerchant(app);
    const addTwice = async () => {
      const first = await cli('merchant', 'user', 'add', '--id', merchantId, '--email', 'twice@shop.example.com', '--role', 'staff', '--json');
      const again = await cli('merchant', 'user', 'add', '--id', merchantId, '--email', 'TWICE@shop.example.com', '--role', 'viewer', '--json');
      return [first, again] as const;
    };
    const [[first, twice], badRole, unknown] = await Promise.all([
      addTwice(),
      cli('merchant', 'user', 'add', '--id', merchantId, '--email', 'r@shop.example.com', '--role', 'admin', '--json'),
      cli('merchant', 'user', 'add', '--id', '00000000-0000-4000-8000-000000000000', '--email', 'u@shop.example.com', '--role', 'viewer', '--json'),
    ]);
    expect(first.code).toBe(0);
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stdout).error.code).toBe('conflict');
    expect(badRole.code).toBe(1);
    expect(JSON.parse(badRole.stdout).error).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'role' }] } });
    expect(JSON.parse(unknown.stdout).error.code).toBe('not_found');
  });
});

describe.concurrent('demo', { timeout: 120_000 }, () => {
  it('includes the demo owner’s email and a new password each time; the old password stops working', async () => {
    const first = JSON.parse((await cli('demo', '--json')).stdout);
    expect(first.ownerEmail).toBe('owner@demo.local');
    expect(first.ownerPassword.length).toBeGreaterThanOrEqual(10);
    const session = await signIn(app, first.ownerEmail, first.ownerPassword);
    expect(session.status).toBe(204);
    const viewer = await gqlOkAs(app, cookieOf(session), `{ viewer { user { email role } merchant { id } } }`);
    expect(viewer.viewer).toEqual({ user: { email: 'owner@demo.local', role: 'owner' }, merchant: { id: first.merchantId } });

    const second = JSON.parse((await cli('demo', '--json')).stdout);
    expect(second.ownerPassword).not.toBe(first.ownerPassword);
    expect((await signIn(app, first.ownerEmail, first.ownerPassword)).status).toBe(401);
    expect((await signIn(app, second.ownerEmail, second.ownerPassword)).status).toBe(204);
  });
});
