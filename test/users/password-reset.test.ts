import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestPasswordReset, RESET_LINK_TTL_MS } from '../../src/domain/users/password-reset.js';
import { makeMerchant, request, startTestApp, testEnv, type TestApp } from '../support/harness.js';
import { runTs } from '../support/process.js';
import { addSignedInUser, gqlAs, newClientIp, setPassword, signIn, tokenOfUrl, USERS_ENV } from './support.js';

/**
 * Password reset (docs/dashboard.md "Signing in"): POST /v1/session/reset answers 204 whatever
 * the email; a known user gets a Persian and English mail through a real SMTP server (smtp-server,
 * on a local port, checking the credentials of SMTP_URL) with a one-time link of an hour; using it
 * ends the user's sessions. The operator's CLI gives the same link and ends them at once.
 */

type Mail = { from: string; to: string[]; raw: string };

/** The text/plain part of a MIME message, decoded (base64 or quoted-printable). */
function textOf(raw: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`) : [raw];
  const part = parts.find((p) => /content-type:\s*text\/plain/i.test(p));
  if (!part) throw new Error('no text/plain part');
  const split = part.search(/\r?\n\r?\n/);
  const head = part.slice(0, split);
  const body = part.slice(split).trim();
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

const linkOf = (mail: Mail) => /https?:\/\/\S+\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}/.exec(textOf(mail.raw))?.[0];

describe('password reset', { timeout: 60_000 }, () => {
  let app: TestApp;
  let smtp: SMTPServer;
  let db: pg.Client;
  const mails: Mail[] = [];
  const logins: string[] = [];

  async function mailTo(email: string): Promise<Mail> {
    for (let i = 0; i < 300; i++) {
      const mail = mails.find((m) => m.to.includes(email));
      if (mail) return mail;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail to ${email}`);
  }

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth: (auth, _session, cb) => {
        logins.push(`${auth.username}:${auth.password}`);
        if (auth.username === 'gateway' && auth.password === 's3cret') cb(null, { user: 'gateway' });
        else cb(new Error('Invalid username or password'));
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    app = await startTestApp({ env: { ...USERS_ENV, SMTP_URL: `smtp://gateway:s3cret@127.0.0.1:${port}`, MAIL_FROM: 'Gateway <no-reply@pay.example.com>' } });
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  const reset = (email: string) => request(app.baseUrl, 'POST', '/v1/session/reset', { body: { email }, headers: { 'x-forwarded-for': newClientIp() } });

  it('mails a known user a one-time link of an hour, Persian and English, through SMTP_URL with its credentials; using it ends their sessions', async () => {
    const { merchantId } = await makeMerchant(app);
    const user = await addSignedInUser(app, merchantId, 'staff');
    const res = await reset(user.email.toUpperCase());
    expect(res.status).toBe(204);

    const mail = await mailTo(user.email);
    expect(mail.from).toBe('no-reply@pay.example.com');
    expect(logins).toContain('gateway:s3cret');
    const text = textOf(mail.raw);
    expect(text).toContain('گذرواژهٔ تازه');
    expect(text).toContain('Open this link to set a new password');
    const link = linkOf(mail)!;
    expect(link).toBeDefined();
    const { rows } = await db.query<{ ttl: number }>(
      `SELECT extract(epoch FROM expires_at - created_at) * 1000 AS ttl FROM set_password_tokens WHERE user_id = $1 AND used_at IS NULL`,
      [user.userId],
    );
    expect(rows.map((r) => Math.round(Number(r.ttl) / 1000))).toEqual([RESET_LINK_TTL_MS / 1000]);

    // The request alone signs nobody out; the link, once used, ends every session of the user.
    expect((await gqlAs(app, user.cookie, '{ viewer { kind } }')).status).toBe(200);
    expect((await setPassword(app, tokenOfUrl(link), 'a-brand-new-password')).status).toBe(204);
    expect((await gqlAs(app, user.cookie, '{ viewer { kind } }')).errors?.[0]?.extensions.code).toBe('unauthorized');
    expect((await setPassword(app, tokenOfUrl(link), 'another-new-password')).status).toBe(400);
    expect((await signIn(app, user.email, 'a-brand-new-password')).status).toBe(204);
    const audit = await db.query(`SELECT action FROM audit_events WHERE subject_id = $1`, [user.userId]);
    expect(audit.rows.map((r) => r.action)).toEqual(expect.arrayContaining(['user.password_reset_requested', 'user.password_set']));
  });

  it('answers an unknown email exactly as a known one, and issues nothing; a malformed one is 400 naming email', async () => {
    const count = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM set_password_tokens')).rows[0]!.n;
    const before = await count();
    const unknown = await reset('nobody-at-all@shop.example.com');
    expect(unknown.status).toBe(204);
    expect(unknown.body).toBeFalsy();
    expect(await count()).toBe(before);
    const bad = await reset('not an email');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'email' }] } });
  });

  it('issues at most 3 links per user an hour, under concurrent requests; the rest answer alike', async () => {
    const { merchantId } = await makeMerchant(app);
    const user = await addSignedInUser(app, merchantId, 'viewer');
    await db.query('DELETE FROM set_password_tokens WHERE user_id = $1', [user.userId]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => reset(user.email)));
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204, 204, 204, 204]);
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM set_password_tokens WHERE user_id = $1', [user.userId]);
    expect(rows[0]!.n).toBe(3);
  });

  it('tells the login page whether mail reset is offered; without mail a request sends and issues nothing', async () => {
    const rest = await request(app.baseUrl, 'GET', '/v1/session/reset');
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ byEmail: true });
    const gql = await request(app.baseUrl, 'POST', '/graphql', { body: { query: '{ passwordResetByEmail }' } });
    expect(gql.body.data).toEqual({ passwordResetByEmail: true });

    const { merchantId } = await makeMerchant(app);
    const user = await addSignedInUser(app, merchantId, 'owner');
    const before = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM set_password_tokens WHERE user_id = $1', [user.userId]);
    const noMail = { ...app.deps, config: { ...app.deps.config, mail: undefined } };
    await requestPasswordReset(noMail, { email: user.email });
    const after = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM set_password_tokens WHERE user_id = $1', [user.userId]);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('CLI merchant user reset --email E --json → {setPasswordUrl}: a one-hour link, and the user’s sessions end at once', async () => {
    const { merchantId } = await makeMerchant(app);
    const user = await addSignedInUser(app, merchantId, 'owner');
    const res = await runTs('src/cli/index.ts', ['merchant', 'user', 'reset', '--email', user.email, '--json'], testEnv(app.databaseUrl, { PUBLIC_BASE_URL: 'https://pay.example.com' }));
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ userId: user.userId, email: user.email, sessionsEnded: 1 });
    expect(out.setPasswordUrl).toMatch(/^https:\/\/pay\.example\.com\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect((await gqlAs(app, user.cookie, '{ viewer { kind } }')).errors?.[0]?.extensions.code).toBe('unauthorized');
    expect((await setPassword(app, tokenOfUrl(out.setPasswordUrl), 'set-by-cli-link-1')).status).toBe(204);
    const unknown = await runTs('src/cli/index.ts', ['merchant', 'user', 'reset', '--email', 'ghost@shop.example.com', '--json'], testEnv(app.databaseUrl));
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe('not_found');
  });
});
