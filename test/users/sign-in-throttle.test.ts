import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMerchant, startTestApp, type TestApp } from '../support/harness.js';
import { addSignedInUser, deviceCookieOf, newClientIp, signIn, USERS_ENV } from './support.js';

// The sign-in throttle (docs/security.md "Signing in"): 10 failures per email from one address and
// 100 per address in 15 minutes, and a device cookie that failures elsewhere never refuse. Nobody
// who knows an owner's email can lock the owner out.

let app: TestApp;
let db: pg.Client;
let merchantId: string;

beforeAll(async () => {
  app = await startTestApp({ env: USERS_ENV });
  db = new pg.Client({ connectionString: app.databaseUrl });
  await db.connect();
  merchantId = (await makeMerchant(app, { name: 'Throttle' })).merchantId;
});
afterAll(async () => {
  await db.end();
  await app.stop();
});

const wrongFrom = (email: string, ip: string, n: number) => Promise.all(Array.from({ length: n }, (_, i) => signIn(app, email, `wrong-password-${i}`, ip)));

describe('failures from many addresses', () => {
  it('never refuse the owner: 10 wrong passwords from 10 addresses, then the right one from a new address is 204', async () => {
    const owner = await addSignedInUser(app, merchantId, 'owner');
    const addresses = Array.from({ length: 10 }, () => newClientIp());
    const answers = await Promise.all(addresses.map((ip) => signIn(app, owner.email, 'not-the-password', ip)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    expect((await signIn(app, owner.email, owner.password, newClientIp())).status).toBe(204);
    // Nor from one of those addresses: each holds one failure of ten.
    expect((await signIn(app, owner.email, owner.password, addresses[0])).status).toBe(204);
  });
});

describe('failures from one address', () => {
  it('refuse the 11th attempt for that email from that address with 429 and Retry-After, even with the right password; other addresses still sign in', async () => {
    const viewer = await addSignedInUser(app, merchantId, 'viewer');
    const ip = newClientIp();
    expect((await wrongFrom(viewer.email, ip, 10)).map((a) => a.status)).toEqual(Array(10).fill(401));
    const refused = await signIn(app, viewer.email, viewer.password, ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect((await signIn(app, viewer.email, viewer.password, newClientIp())).status).toBe(204);
    // Once the failures are older than 15 minutes, the right password works from that address again.
    await db.query(`UPDATE login_attempts SET at = at - interval '16 minutes' WHERE email = $1`, [viewer.email]);
    expect((await signIn(app, viewer.email, viewer.password, ip)).status).toBe(204);
  });

  it('throttle an unknown email exactly alike: the answer says nothing about accounts', async () => {
    const ip = newClientIp();
    // Nine failures as nine wrong passwords would leave them (each check of an unknown email costs
    // a full 32 MiB scrypt, on purpose); the tenth is a real one, so it must count for the 11th to be refused.
    await db.query(`INSERT INTO login_attempts (email, ip) SELECT 'ghost@shop.example.com', $1 FROM generate_series(1, 9)`, [ip]);
    expect((await signIn(app, 'ghost@shop.example.com', 'wrong-password-10', ip)).status).toBe(401);
    const refused = await signIn(app, 'ghost@shop.example.com', 'wrong', ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
  });

  it('refuse the 101st failure from one address across emails, for every email; another address signs in', async () => {
    const staff = await addSignedInUser(app, merchantId, 'staff');
    const ip = newClientIp();
    // 99 failures of that address, each for another email, as 99 wrong passwords would leave them
    // (a password check costs 32 MiB of scrypt: 100 of them would make the test minutes long).
    await db.query(`INSERT INTO login_attempts (email, ip) SELECT 'spray-' || i || '@shop.example.com', $1 FROM generate_series(1, 99) i`, [ip]);
    expect((await signIn(app, 'spray-100@shop.example.com', 'password-1234', ip)).status).toBe(401);
    const refused = await signIn(app, staff.email, staff.password, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await signIn(app, staff.email, staff.password, newClientIp())).status).toBe(204);
    // The browser where this user signed in before is not refused from that address.
    expect((await signIn(app, staff.email, staff.password, ip, { cookie: staff.device })).status).toBe(204);
  });

  it('let no more than 10 of 30 concurrent wrong passwords for one email from one address reach the password check', async () => {
    const owner = await addSignedInUser(app, merchantId, 'owner');
    const statuses = (await wrongFrom(owner.email, newClientIp(), 30)).map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true);
  });
});

describe('the device cookie', () => {
  it('is set at each sign-in: HttpOnly, SameSite=Strict, Path=/, 180 days (not Secure on plain http localhost)', async () => {
    const owner = await addSignedInUser(app, merchantId, 'owner');
    const res = await signIn(app, owner.email, owner.password);
    const set = res.headers.getSetCookie().find((c) => c.startsWith('gw_device='))!;
    expect(set).toMatch(/^gw_device=[A-Za-z0-9_-]{43}; /);
    const attributes = set.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['path=/', 'httponly', 'samesite=strict', `max-age=${180 * 24 * 60 * 60}`]));
    expect(attributes).not.toContain('secure');
    expect(deviceCookieOf(res)).not.toBe(owner.device);
  });

  it('lets the right password through from an address throttled for that email, and only for its own user', async () => {
    const owner = await addSignedInUser(app, merchantId, 'owner');
    const other = await addSignedInUser(app, merchantId, 'staff');
    const ip = newClientIp();
    await wrongFrom(owner.email, ip, 10);
    expect((await signIn(app, owner.email, owner.password, ip)).status).toBe(429);
    // Another user's device cookie, or a made-up one, is no device of this user's.
    expect((await signIn(app, owner.email, owner.password, ip, { cookie: other.device })).status).toBe(429);
    expect((await signIn(app, owner.email, owner.password, ip, { cookie: `gw_device=${'A'.repeat(43)}` })).status).toBe(429);

    const trusted = await signIn(app, owner.email, owner.password, ip, { cookie: owner.device });
    expect(trusted.status).toBe(204);
    // Each sign-in gives the browser a new device token; the one it replaced stops counting.
    const renewed = deviceCookieOf(trusted);
    expect(renewed).not.toBe(owner.device);
    expect((await signIn(app, owner.email, owner.password, ip, { cookie: owner.device })).status).toBe(429);
    expect((await signIn(app, owner.email, owner.password, ip, { cookie: renewed })).status).toBe(204);
  });

  it('keeps the newest 20 devices of a user: a client that never keeps the cookie does not grow the table', async () => {
    const staff = await addSignedInUser(app, merchantId, 'staff');
    await db.query(
      `INSERT INTO trusted_devices (user_id, token_hash, created_at, expires_at)
       SELECT $1, md5(random()::text || i), now() - make_interval(days => i), now() + interval '1 day' FROM generate_series(1, 25) i`,
      [staff.userId],
    );
    const res = await signIn(app, staff.email, staff.password);
    expect(res.status).toBe(204);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM trusted_devices WHERE user_id = $1`, [staff.userId]);
    expect(rows[0].n).toBe(20);
    const ip = newClientIp();
    await wrongFrom(staff.email, ip, 10);
    expect((await signIn(app, staff.email, staff.password, ip, { cookie: deviceCookieOf(res) })).status).toBe(204);
  });

  it('has its own 10 failures: guessing with it is refused after 10, and a browser elsewhere is not', async () => {
    const viewer = await addSignedInUser(app, merchantId, 'viewer');
    const ip = newClientIp();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn(app, viewer.email, `wrong-${i}`, newClientIp(), { cookie: viewer.device })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    expect((await signIn(app, viewer.email, viewer.password, ip, { cookie: viewer.device })).status).toBe(429);
    expect((await signIn(app, viewer.email, viewer.password, ip)).status).toBe(204);
  });
});
