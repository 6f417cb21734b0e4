import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOVED_BODY, runRetention } from '../../src/domain/retention/retention.js';
import { createPaymentRest, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { mellatDeposit } from '../support/sms.js';

// The daily retention job (docs/operations.md "Retention"): what is past its period goes, what money
// depends on never does, and the run says what it removed (log, /metrics).

const DAY = 86_400_000;
const periods = { foreignSmsDays: 7, webhookBodyDays: 90, sessionDays: 30, jobDays: 7, chatDays: 90 };

describe('retention', () => {
  let app: TestApp;
  let db: pg.Client;
  let shop: Awaited<ReturnType<typeof makeShop>>;
  let merchantId: string;

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    shop = await makeShop(app, { sandbox: false, credit: 1_000_000, card: { accountNumber: '1234567890', smsSender: '+989350001111' } });
    merchantId = (await db.query<{ merchant_id: string }>('SELECT merchant_id FROM projects WHERE id = $1', [shop.projectId])).rows[0]!.merchant_id;
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  /** A stored SMS of the shop's phone, `daysAgo` old, in the state given. */
  async function message(sender: string, body: string, daysAgo: number, fields: Record<string, unknown> = {}): Promise<string> {
    const row: Record<string, unknown> = {
      id: randomUUID(),
      merchant_id: merchantId,
      device_id: shop.deviceId,
      sender,
      body,
      body_sha256: createHash('sha256').update(body).digest('hex'),
      received_at: new Date(Date.now() - daysAgo * DAY),
      created_at: new Date(Date.now() - daysAgo * DAY),
      status: 'unparsed',
      ...fields,
    };
    const cols = Object.keys(row);
    await db.query(`INSERT INTO bank_messages (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
    return row.id as string;
  }
  const bodyOf = async (id: string) => (await db.query<{ body: string; body_raw: string | null }>('SELECT body, body_raw FROM bank_messages WHERE id = $1', [id])).rows[0]!;

  it('blanks old texts from senders that are no bank’s and matched nothing; keeps banks’, vouched, recent, held, decided, copied and copying ones', async () => {
    const otp = await message('+989121234567', 'کد ورود شما: 48213', 8, { body_raw: JSON.stringify('کد ورود شما: 48213\u0000') });
    const privateText = await message('Digikala', 'سفارش شما ارسال شد', 9, { status: 'ignored' });
    const recent = await message('+989121234567', 'کد تایید 1122', 6);
    const bankUnmatched = await message('BankMellat', mellatDeposit({ account: '1234567890', amount: 999_000, balance: 5_000_000 }), 30, { status: 'unmatched' });
    const vouched = await message('+989350001111', 'واریز 100,000', 30);
    const held = await message('+989121234567', 'واریز 200,000 مانده 1,000,000', 30, { status: 'needs_review', review_reason: 'unknown_sender', evidence_problem: 'unknown_sender' });
    const dismissed = await message('+989121234567', 'واریز 300,000', 30, { status: 'dismissed', decided_at: new Date(Date.now() - 20 * DAY), decision_note: 'not ours' });
    const original = await message('+989121234567', 'متن اصلی', 30);
    // A copy of a message is evidence about it (a re-send, a forgery): it stays with its original.
    const copy = await message('+989121234567', 'متن اصلی', 29, { status: 'duplicate', duplicate_of_id: original });

    const removed = await runRetention(app.deps.pool, periods, app.deps.log);
    expect(removed.smsBodies).toBe(2);
    expect(await bodyOf(otp)).toEqual({ body: REMOVED_BODY, body_raw: null });
    expect((await bodyOf(privateText)).body).toBe(REMOVED_BODY);
    for (const kept of [recent, bankUnmatched, vouched, held, dismissed, original, copy]) expect((await bodyOf(kept)).body).not.toBe(REMOVED_BODY);
  });

  it('never touches a matched deposit, its payment, the ledger or the audit log, however old', async () => {
    const payment = (await createPaymentRest(app, shop.apiKey, { amount: 150_000 })).body;
    const sms = await request(app.baseUrl, 'POST', '/v1/device/messages', {
      token: shop.deviceToken,
      body: { sender: 'BankMellat', body: mellatDeposit({ account: '1234567890', amount: payment.amountFinal, balance: 7_000_000 }), receivedAt: new Date().toISOString() },
    });
    expect(sms.body.status).toBe('matched');
    await db.query(`UPDATE bank_messages SET created_at = created_at - interval '400 days', received_at = received_at - interval '400 days' WHERE merchant_id = $1`, [merchantId]);
    const snapshot = async () =>
      (
        await db.query<{ t: string }>(
          `SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS t FROM (
             SELECT p::text AS x FROM payments p UNION ALL SELECT l::text FROM credit_ledger_entries l
             UNION ALL SELECT a::text FROM audit_events a UNION ALL SELECT r::text FROM refunds r
             UNION ALL SELECT m::text FROM bank_messages m WHERE m.payment_id IS NOT NULL OR m.decided_at IS NOT NULL) s`,
        )
      ).rows[0]!.t;
    const before = await snapshot();
    await runRetention(app.deps.pool, { foreignSmsDays: 1, webhookBodyDays: 1, sessionDays: 1, jobDays: 1, chatDays: 1 }, app.deps.log);
    expect(await snapshot()).toBe(before);
  });

  it('empties old webhook answers but keeps the attempt; deletes old sessions, sign-in attempts, used set-password links, finished jobs and chat prompts', async () => {
    const endpoint = (
      await db.query<{ id: string }>(`INSERT INTO webhook_endpoints (project_id, url, secret_ciphertext) VALUES ($1, 'https://shop.example.com/hook', 'x') RETURNING id`, [shop.projectId])
    ).rows[0]!.id;
    const delivery = (
      await db.query<{ id: string }>(`INSERT INTO webhook_deliveries (endpoint_id, project_id, event_type, test) VALUES ($1, $2, 'payment.confirmed', true) RETURNING id`, [endpoint, shop.projectId])
    ).rows[0]!.id;
    await db.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, response_status, response_excerpt)
       VALUES ($1, 1, now() - interval '91 days', 12, 500, 'stack trace of the shop'), ($1, 2, now() - interval '89 days', 10, 200, 'ok')`,
      [delivery],
    );
    const user = (await db.query<{ id: string }>(`INSERT INTO users (merchant_id, email, role) VALUES ($1, $2, 'staff') RETURNING id`, [merchantId, `r${randomUUID()}@x.ir`])).rows[0]!.id;
    await db.query(
      `INSERT INTO sessions (user_id, token_hash, expires_at, created_at) VALUES ($1, $2, now() - interval '31 days', now() - interval '38 days'), ($1, $3, now() + interval '1 day', now())`,
      [user, randomUUID(), randomUUID()],
    );
    await db.query(`INSERT INTO login_attempts (email, ip, at) VALUES ('a@x.ir', '1.2.3.4', now() - interval '31 days'), ('a@x.ir', '1.2.3.4', now())`);
    await db.query(
      `INSERT INTO set_password_tokens (user_id, token_hash, expires_at, used_at) VALUES ($1, $2, now() - interval '40 days', now() - interval '31 days'), ($1, $3, now() + interval '1 hour', NULL)`,
      [user, randomUUID(), randomUUID()],
    );
    await db.query(
      `INSERT INTO pgboss.job (name, state, completed_on) VALUES ('retention', 'completed', now() - interval '8 days'), ('retention', 'failed', now() - interval '9 days'), ('retention', 'completed', now() - interval '1 day')`,
    );

    const link = (
      await db.query<{ id: string }>(`INSERT INTO chat_links (user_id, platform, chat_id, chat_title, events) VALUES ($1, 'TELEGRAM', 42, 'shop', '{}') RETURNING id`, [user])
    ).rows[0]!.id;
    const prompts = await db.query<{ id: string }>(
      `INSERT INTO chat_prompts (link_id, subject_type, subject_id, text, created_at) VALUES ($1, 'bank_message', gen_random_uuid(), 'واریز ۱۵۰٬۰۰۰ تومان', now() - interval '91 days'), ($1, 'bank_message', gen_random_uuid(), 'واریز ۲۰۰٬۰۰۰ تومان', now()) RETURNING id`,
      [link],
    );
    await db.query(`INSERT INTO chat_buttons (token, prompt_id, action, label) VALUES ($1, $2, 'dismiss', 'رد')`, [randomUUID(), prompts.rows[0]!.id]);

    const removed = await runRetention(app.deps.pool, periods, app.deps.log);
    expect(removed).toMatchObject({ webhookBodies: 1, sessions: 1, loginAttempts: 1, setPasswordTokens: 1, jobs: 2, chatPrompts: 1 });
    expect((await db.query('SELECT count(*)::int AS n FROM chat_prompts WHERE link_id = $1', [link])).rows[0].n).toBe(1);
    expect((await db.query('SELECT count(*)::int AS n FROM chat_buttons WHERE prompt_id = $1', [prompts.rows[0]!.id])).rows[0].n).toBe(0);
    const attempts = (await db.query('SELECT attempt_number, response_status, response_excerpt FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_number', [delivery])).rows;
    expect(attempts).toEqual([
      { attempt_number: 1, response_status: 500, response_excerpt: null },
      { attempt_number: 2, response_status: 200, response_excerpt: 'ok' },
    ]);
    expect((await db.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [user])).rows[0].n).toBe(1);
    expect((await db.query('SELECT count(*)::int AS n FROM set_password_tokens WHERE user_id = $1', [user])).rows[0].n).toBe(1);

    // Idempotent: a second run finds nothing left, and /metrics reports the last run.
    expect(await runRetention(app.deps.pool, periods, app.deps.log)).toEqual({ smsBodies: 0, webhookBodies: 0, sessions: 0, loginAttempts: 0, setPasswordTokens: 0, jobs: 0, chatPrompts: 0 });
    const scrape = (await request(app.baseUrl, 'GET', '/metrics')).text;
    expect(scrape).toMatch(/^gateway_retention_removed\{kind="sms_bodies"\} 0$/m);
    expect(scrape).toMatch(/^gateway_retention_last_run_timestamp_seconds \d+/m);
  });

  it('is a daily job of the worker, with the periods from the environment', async () => {
    const schedule = (await db.query(`SELECT cron FROM pgboss.schedule WHERE name = 'retention'`)).rows;
    expect(schedule).toEqual([{ cron: '0 0 * * *' }]);
    expect(app.deps.config.retention).toEqual(periods);
  });
});
