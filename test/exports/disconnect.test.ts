import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORTS_AT_ONCE } from '../../src/domain/exports/export.js';
import { makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { shopOf, type Shop } from '../reports/payment-rows.js';

const ROWS = 60_000;
// The export's statement, as pg_stat_activity shows it.
const EXPORT_QUERY = '%FROM payments p JOIN cards c ON c.id = p.card_id%';

/** An export opened and read up to its first chunk, then left unread (the server waits for room). */
async function openStalled(app: TestApp, token: string, format = 'csv') {
  const controller = new AbortController();
  const res = await fetch(`${app.baseUrl}/v1/exports/payments?format=${format}`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  const reader = res.body!.getReader();
  const first = await reader.read();
  return {
    res,
    first,
    abort: async () => {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}

describe('an export whose reader goes away', { timeout: 60_000 }, () => {
  let app: TestApp;
  let db: pg.Client;
  let shop: Shop & { apiKey: string };

  const running = async () =>
    (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state <> 'idle' AND query LIKE $1`, [EXPORT_QUERY])
    ).rows[0]!.n;

  async function settles(to: number): Promise<number> {
    let n = await running();
    for (let i = 0; i < 100 && n !== to; i++) {
      await new Promise((r) => setTimeout(r, 100));
      n = await running();
    }
    return n;
  }

  beforeAll(async () => {
    // An API process: no worker's expiry sweep expires the 60,000 rows (due at once) while the tests
    // run, and holds its shutdown for a minute doing so (a loaded run's afterAll timed out on it).
    app = await startTestApp({ role: 'api' });
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const made = await makeShop(app, { sandbox: false, credit: 1_000_000 });
    shop = { ...made, ...(await shopOf(db, made, false)) };
    await db.query(
      `INSERT INTO payments (project_id, merchant_id, card_id, amount_requested, code, amount_final, amount_mode, token, expires_at, late_until, sandbox, created_at, fee_amount, fee_state, fee_stripe, order_id)
       SELECT $1, $2, $3, 100000, 10 * (i % 9000), 100000 + 10 * (i % 9000), 'unique_code', lpad(i::text, 43, 'D'),
              now(), now() + interval '1 hour', false, now() - interval '1 day' + i * interval '1 millisecond', 1000, 'reserved', 0, 'order-' || i
         FROM generate_series(1, ${ROWS}) i`,
      [shop.projectId, shop.merchantId, shop.cardId],
    );
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  it('stops its query: no export statement is left running in the database', async () => {
    const exp = await openStalled(app, shop.apiKey);
    expect(exp.res.status).toBe(200);
    expect(exp.first.done).toBe(false);
    // While the reader holds back, the cursor waits in the database, open.
    expect(await running()).toBe(1);
    await exp.abort();
    expect(await settles(0)).toBe(0);
  });

  it('stops an XLSX export the same way', async () => {
    const exp = await openStalled(app, shop.apiKey, 'xlsx');
    expect(exp.res.status).toBe(200);
    expect(await running()).toBe(1);
    await exp.abort();
    expect(await settles(0)).toBe(0);
  });

  it(`runs ${EXPORTS_AT_ONCE} exports at once and tells the next to retry; the pool recovers after`, async () => {
    const open = await Promise.all(Array.from({ length: EXPORTS_AT_ONCE }, () => openStalled(app, shop.apiKey)));
    const refused = await request(app.baseUrl, 'GET', '/v1/exports/payments', { token: shop.apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe('5');
    for (const exp of open) await exp.abort();
    expect(await settles(0)).toBe(0);
    const whole = await fetch(`${app.baseUrl}/v1/exports/payments`, { headers: { authorization: `Bearer ${shop.apiKey}` } });
    const text = await whole.text();
    expect(whole.status).toBe(200);
    // The header and every row, each ending in CRLF.
    expect(text.split('\r\n').length - 2).toBe(ROWS);
  });
});
