import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { addUser } from '../../src/domain/users/users.js';
import { gql, gqlOk, makeMerchant, request, startTestApp, type TestApp } from '../support/harness.js';
import { addSignedInUser, cookieOf, CSRF, errorCode, gqlAs, gqlOkAs, newClientIp, restAs, setPassword, signIn, tokenOfUrl, USERS_ENV } from './support.js';

// Dashboard sessions (docs/security.md "Dashboard users and sessions"): the cookie, the CSRF header
// rule, expiry and revocation, the set-password link, and a password change ending other sessions.

let app: TestApp;
let db: pg.Client;
let merchant: { merchantId: string; merchantKey: string };

const VIEWER = `{ viewer { kind user { id email role } merchant { id } } }`;

beforeAll(async () => {
  app = await startTestApp({ env: USERS_ENV });
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  merchant = await makeMerchant(app, { name: 'Sessions' });
});
afterAll(async () => {
  await db.end();
  await app.stop();
});

describe('signing in', () => {
  it('answers 204 with an HttpOnly, SameSite=Strict, Path=/ cookie (not Secure on plain http localhost) that authenticates GraphQL', async () => {
    const owner = await addSignedInUser(app, merchant.merchantId, 'owner');
    const again = await signIn(app, owner.email, owner.password);
    expect(again.status).toBe(204);
    const [setCookie] = again.headers.getSetCookie();
    expect(setCookie).toMatch(/^gw_session=[A-Za-z0-9_-]{43}; /);
    const attributes = setCookie!.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['path=/', 'httponly', 'samesite=strict', 'max-age=604800']));
    expect(attributes).not.toContain('secure');
    expect(again.headers.get('access-control-allow-credentials')).toBeNull();

    const viewer = await gqlOkAs(app, cookieOf(again), VIEWER);
    expect(viewer.viewer).toEqual({ kind: 'user', user: { id: owner.userId, email: owner.email, role: 'owner' }, merchant: { id: merchant.merchantId } });
  });

  it('refuses a cookie-authenticated GraphQL request without x-graphql-yoga-csrf with 401, and leaves bearer requests alone', async () => {
    const staff = await addSignedInUser(app, merchant.merchantId, 'staff');
    const without = await gqlAs(app, staff.cookie, VIEWER, {}, { csrf: false });
    expect(without.status).toBe(401);
    expect(errorCode(without)).toBe('unauthorized');
    expect(without.errors![0]!.message).toMatch(/x-graphql-yoga-csrf/);
    // Public fields still answer: a checkout page opened in a signed-in browser keeps working.
    const publicField = await gqlAs(app, staff.cookie, `{ paymentLink(slug: "no-such-link") { slug } }`, {}, { csrf: false });
    expect(publicField.errors).toBeUndefined();
    expect(publicField.data).toEqual({ paymentLink: null });
    // A bearer key needs no CSRF header, and an Authorization header wins over the cookie.
    const bearer = await request(app.baseUrl, 'POST', '/graphql', { token: merchant.merchantKey, body: { query: `{ viewer { kind } }` }, headers: { cookie: staff.cookie } });
    expect(bearer.body.data).toEqual({ viewer: { kind: 'merchant' } });
    expect((await gqlAs(app, staff.cookie, VIEWER)).data.viewer.user.role).toBe('staff');
  });

  it('gives an unknown email, a user without a password and a wrong password the same 401 and message', async () => {
    const staff = await addSignedInUser(app, merchant.merchantId, 'staff');
    await addUser(app.deps, operatorActor, { merchantId: merchant.merchantId, email: 'invited-not-set@shop.example.com', role: 'viewer' });
    const answers = await Promise.all([
      signIn(app, 'nobody-here@shop.example.com', 'whatever-password'),
      signIn(app, 'invited-not-set@shop.example.com', 'whatever-password'),
      signIn(app, staff.email, 'not-the-password'),
      signIn(app, staff.email.toUpperCase(), 'not-the-password'),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'unauthorized', message: answers[0]!.body.error.message, details: {} });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    // The email is matched without regard to case.
    expect((await signIn(app, staff.email.toUpperCase(), staff.password)).status).toBe(204);
  });

  it('refuses a sign-in or a set-password sent by another site’s page (its Origin) with 403, and takes the service’s own', async () => {
    const staff = await addSignedInUser(app, merchant.merchantId, 'staff');
    const foreign = await signIn(app, staff.email, staff.password, newClientIp(), { origin: 'https://evil.example.net' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('forbidden');
    expect(foreign.headers.getSetCookie()).toEqual([]);
    expect((await setPassword(app, 'x'.repeat(43), 'a-long-enough-password', { origin: 'https://evil.example.net' })).status).toBe(403);
    expect((await signIn(app, staff.email, staff.password, newClientIp(), { origin: app.baseUrl })).status).toBe(204);
  });

  it('answers 400 naming the field for a body without email or password', async () => {
    const res = await signIn(app, undefined as unknown as string, 'x');
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['email']);
  });

  it('answers 400 naming email for an empty or blank email, and records no failed attempt for it', async () => {
    const failures = () => db.query(`SELECT count(*)::int AS n FROM login_attempts`).then((r) => r.rows[0].n as number);
    const before = await failures();
    for (const email of ['', '   ']) {
      const res = await signIn(app, email, ' ');
      expect(res.status, email).toBe(400);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['email']);
    }
    expect(await failures()).toBe(before);
  });
});

describe('the set-password link', () => {
  it('works once: a second use answers 400 invalid_request naming token', async () => {
    const created = await addUser(app.deps, operatorActor, { merchantId: merchant.merchantId, email: 'once@shop.example.com', role: 'staff' });
    const token = tokenOfUrl(created.setPasswordUrl);
    expect(created.setPasswordUrl).toMatch(/\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect((await setPassword(app, token, 'first-password-ok')).status).toBe(204);
    const again = await setPassword(app, token, 'second-password-ok');
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'token' }] } });
    expect((await signIn(app, 'once@shop.example.com', 'first-password-ok')).status).toBe(204);
    expect((await signIn(app, 'once@shop.example.com', 'second-password-ok')).status).toBe(401);
  });

  it('refuses a password under 10 characters naming password, without spending the token', async () => {
    const created = await addUser(app.deps, operatorActor, { merchantId: merchant.merchantId, email: 'short@shop.example.com', role: 'viewer' });
    const token = tokenOfUrl(created.setPasswordUrl);
    const short = await setPassword(app, token, 'only9char');
    expect(short.status).toBe(400);
    expect(short.body.error.details.fields).toEqual([{ field: 'password', message: expect.stringMatching(/10/) }]);
    expect((await setPassword(app, token, 'ten-chars!')).status).toBe(204);
  });

  it('refuses an expired or unknown token with 400 naming token', async () => {
    const created = await addUser(app.deps, operatorActor, { merchantId: merchant.merchantId, email: 'late@shop.example.com', role: 'viewer' });
    await db.query(`UPDATE set_password_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [created.user.id]);
    for (const token of [tokenOfUrl(created.setPasswordUrl), 'x'.repeat(43), 'nonsense']) {
      const res = await setPassword(app, token, 'a-long-enough-password');
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields[0].field).toBe('token');
    }
  });

  it('stores only an scrypt hash of the password and SHA-256 hashes of the tokens', async () => {
    const owner = await addSignedInUser(app, merchant.merchantId, 'owner');
    // A password as the link sets it (addSignedInUser swaps in a quicker hash afterwards).
    const created = await addUser(app.deps, operatorActor, { merchantId: merchant.merchantId, email: 'hashed@shop.example.com', role: 'viewer' });
    expect((await setPassword(app, tokenOfUrl(created.setPasswordUrl), 'a-stored-password')).status).toBe(204);
    const { rows } = await db.query(`SELECT password_hash FROM users WHERE id = $1`, [created.user.id]);
    expect(rows[0].password_hash).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect((await signIn(app, 'hashed@shop.example.com', 'a-stored-password')).status).toBe(204);
    const token = owner.cookie.split('=')[1]!;
    expect((await db.query(`SELECT count(*)::int AS n FROM sessions WHERE token_hash = $1`, [token])).rows[0].n).toBe(0);
    expect((await db.query(`SELECT count(*)::int AS n FROM sessions WHERE token_hash = encode(sha256($1::bytea), 'hex')`, [token])).rows[0].n).toBe(1);
  });

  it('ends every other session of the user when the password changes; the session that changed it stays', async () => {
    const owner = await addSignedInUser(app, merchant.merchantId, 'owner');
    const staff = await addSignedInUser(app, merchant.merchantId, 'staff');
    const other = cookieOf(await signIn(app, staff.email, staff.password));
    const reset = await gqlOkAs(app, owner.cookie, `mutation($id: ID!) { resetUserPassword(id: $id) { setPasswordUrl user { id } } }`, { id: staff.userId });
    expect((await setPassword(app, tokenOfUrl(reset.resetUserPassword.setPasswordUrl), 'a-brand-new-password', { cookie: staff.cookie })).status).toBe(204);
    expect(errorCode(await gqlAs(app, other, VIEWER))).toBe('unauthorized');
    expect((await gqlOkAs(app, staff.cookie, VIEWER)).viewer.user.id).toBe(staff.userId);
    const signedIn = await signIn(app, staff.email, 'a-brand-new-password');
    expect(signedIn.status).toBe(204);

    // changePassword: the current password is checked; the other sessions end.
    const third = cookieOf(signedIn);
    const wrong = await gqlAs(app, staff.cookie, `mutation { changePassword(currentPassword: "nope-nope-nope", newPassword: "another-new-password") }`);
    expect(errorCode(wrong)).toBe('invalid_request');
    expect(await gqlOkAs(app, staff.cookie, `mutation { changePassword(currentPassword: "a-brand-new-password", newPassword: "another-new-password") }`)).toEqual({ changePassword: true });
    expect(errorCode(await gqlAs(app, third, VIEWER))).toBe('unauthorized');
    expect((await gqlOkAs(app, staff.cookie, VIEWER)).viewer.user.id).toBe(staff.userId);
  });
});

describe('sessions', () => {
  it('lists the caller’s live sessions and ends one with revokeSession; the ended cookie answers 401', async () => {
    const staff = await addSignedInUser(app, merchant.merchantId, 'staff');
    const second = cookieOf(await signIn(app, staff.email, staff.password, newClientIp(), { 'user-agent': 'SecondBrowser/1.0' }));
    const list = await gqlOkAs(app, staff.cookie, `{ sessions { id current userAgent ip user { id } createdAt lastSeenAt expiresAt revokedAt } }`);
    expect(list.sessions).toHaveLength(2);
    expect(list.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const theOther = list.sessions.find((s: { current: boolean }) => !s.current);
    expect(theOther).toMatchObject({ userAgent: 'SecondBrowser/1.0', user: { id: staff.userId }, revokedAt: null });
    expect(Date.parse(theOther.expiresAt) - Date.parse(theOther.lastSeenAt)).toBe(12 * 3600 * 1000);

    const revoked = await gqlOkAs(app, staff.cookie, `mutation($id: ID!) { revokeSession(id: $id) { id revokedAt } }`, { id: theOther.id });
    expect(revoked.revokeSession.revokedAt).not.toBeNull();
    const dead = await gqlAs(app, second, VIEWER);
    expect(errorCode(dead)).toBe('unauthorized');
    expect((await restAs(app, second, 'GET', `/v1/payments/00000000-0000-4000-8000-000000000000/refunds`)).status).toBe(401);
    expect((await gqlOkAs(app, staff.cookie, `{ sessions { id } }`)).sessions).toHaveLength(1);
  });

  it('shows an owner every user’s sessions (allUsers) and lets the owner end them; staff may not', async () => {
    const owner = await addSignedInUser(app, merchant.merchantId, 'owner');
    const staff = await addSignedInUser(app, merchant.merchantId, 'staff');
    expect(errorCode(await gqlAs(app, staff.cookie, `{ sessions(allUsers: true) { id } }`))).toBe('forbidden');
    const all = await gqlOkAs(app, owner.cookie, `{ sessions(allUsers: true) { id user { id } } }`);
    const staffSession = all.sessions.find((s: { user: { id: string } }) => s.user.id === staff.userId);
    expect(staffSession).toBeDefined();
    const ownerSession = all.sessions.find((s: { user: { id: string } }) => s.user.id === owner.userId);
    expect(errorCode(await gqlAs(app, staff.cookie, `mutation($id: ID!) { revokeSession(id: $id) { id } }`, { id: ownerSession.id }))).toBe('forbidden');
    await gqlOkAs(app, owner.cookie, `mutation($id: ID!) { revokeSession(id: $id) { id } }`, { id: staffSession.id });
    expect(errorCode(await gqlAs(app, staff.cookie, VIEWER))).toBe('unauthorized');
  });

  it('ends with DELETE /v1/session (204, cookie cleared), after 12 idle hours and after 7 days', async () => {
    const viewer = await addSignedInUser(app, merchant.merchantId, 'viewer');
    const out = await restAs(app, viewer.cookie, 'DELETE', '/v1/session');
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^gw_session=; .*Max-Age=0/);
    expect(errorCode(await gqlAs(app, viewer.cookie, VIEWER))).toBe('unauthorized');
    expect((await request(app.baseUrl, 'DELETE', '/v1/session')).status).toBe(204);

    const idle = cookieOf(await signIn(app, viewer.email, viewer.password));
    const old = cookieOf(await signIn(app, viewer.email, viewer.password));
    const hash = (cookie: string) => db.query(`SELECT id FROM sessions WHERE token_hash = encode(sha256($1::bytea), 'hex')`, [cookie.split('=')[1]]).then((r) => r.rows[0].id as string);
    await db.query(`UPDATE sessions SET last_seen_at = now() - interval '12 hours 1 minute' WHERE id = $1`, [await hash(idle)]);
    await db.query(`UPDATE sessions SET created_at = now() - interval '8 days', expires_at = now() - interval '1 day' WHERE id = $1`, [await hash(old)]);
    // The process's credential cache holds an answer for at most half a second.
    await new Promise((r) => setTimeout(r, 600));
    expect(errorCode(await gqlAs(app, idle, VIEWER))).toBe('unauthorized');
    expect(errorCode(await gqlAs(app, old, VIEWER))).toBe('unauthorized');
  });

  it('stamps last_seen_at as the session is used, so an active session does not idle out', async () => {
    const viewer = await addSignedInUser(app, merchant.merchantId, 'viewer');
    const id = (await db.query(`SELECT id FROM sessions WHERE token_hash = encode(sha256($1::bytea), 'hex')`, [viewer.cookie.split('=')[1]])).rows[0].id;
    await db.query(`UPDATE sessions SET last_seen_at = now() - interval '11 hours' WHERE id = $1`, [id]);
    await new Promise((r) => setTimeout(r, 600));
    await gqlOkAs(app, viewer.cookie, VIEWER);
    const { rows } = await db.query(`SELECT now() - last_seen_at < interval '1 minute' AS fresh FROM sessions WHERE id = $1`, [id]);
    expect(rows[0].fresh).toBe(true);
  });
});

describe('the session cookie on other transports', () => {
  it('authenticates REST reads without the CSRF header, and REST changes only with it', async () => {
    const staff = await addSignedInUser(app, merchant.merchantId, 'staff');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await restAs(app, staff.cookie, 'GET', `/v1/payments/${unknown}/refunds`)).status).toBe(404);
    const noHeader = await restAs(app, staff.cookie, 'POST', `/v1/payments/${unknown}/refunds`, { body: { amount: 10000, destinationCard: '6037991234567893' } });
    expect(noHeader.status).toBe(401);
    const withHeader = await restAs(app, staff.cookie, 'POST', `/v1/payments/${unknown}/refunds`, { body: { amount: 10000, destinationCard: '6037991234567893' }, csrf: true });
    expect(withHeader.status).toBe(404);
  });

  it('authenticates graphql-ws from the upgrade’s cookie when the Origin is the service’s own, not from another site', async () => {
    const owner = await addSignedInUser(app, merchant.merchantId, 'owner');
    const wsQuery = (headers: Record<string, string>) => {
      const client = createClient({
        url: `${app.baseUrl.replace('http', 'ws')}/graphql`,
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols: string[]) {
            super(url, protocols, { headers });
          }
        },
        retryAttempts: 0,
      });
      return new Promise<any>((resolve, reject) => {
        let result: unknown;
        client.subscribe({ query: `{ viewer { kind user { email } } }` }, { next: (v) => (result = v), error: reject, complete: () => resolve(result) });
      }).finally(() => client.dispose());
    };
    expect(await wsQuery({ cookie: owner.cookie, origin: app.baseUrl })).toEqual({ data: { viewer: { kind: 'user', user: { email: owner.email } } } });
    const foreign = await wsQuery({ cookie: owner.cookie, origin: 'https://evil.example.net' });
    expect(foreign.errors[0].extensions.code).toBe('unauthorized');
  });

  it('authenticates GraphQL over server-sent events with the cookie and the CSRF header', async () => {
    const viewer = await addSignedInUser(app, merchant.merchantId, 'viewer');
    const res = await fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie: viewer.cookie, ...CSRF },
      body: JSON.stringify({ query: '{ viewer { kind } }' }),
    });
    const dataLine = (await res.text()).split('\n').find((l) => l.startsWith('data: {'));
    expect(JSON.parse(dataLine!.slice(6))).toEqual({ data: { viewer: { kind: 'user' } } });
  });

  it('never answers CORS with credentials allowed', async () => {
    const preflight = await request(app.baseUrl, 'OPTIONS', '/graphql', { headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-graphql-yoga-csrf, content-type' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const anonymous = await gql(app.baseUrl, `{ viewer { kind } }`);
    expect(errorCode(anonymous)).toBe('unauthorized');
    expect((await gqlOk(app.baseUrl, `{ viewer { kind } }`, {}, merchant.merchantKey)).viewer.kind).toBe('merchant');
  });
});
