import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { CLAIM_DUE_PENDING } from '../../src/domain/payments/store/locks.js';
import { checkoutSourceByToken } from '../../src/domain/payments/store/checkout-view.js';
import { createPaymentRow } from '../../src/domain/payments/store/create.js';
import { listOfProject, paymentOfProject } from '../../src/domain/payments/store/reads.js';
import { paymentStatsOf } from '../../src/domain/reports/store/payment-stats.js';
import { paymentsExport } from '../../src/domain/exports/store/queries.js';

/**
 * The hot statements as the service sends them (its own store functions, its own texts), each run
 * once on each database with auto_explain on for this session (log_analyze, log_buffers, nested
 * statements: the create function's statements show one by one), its plans received as notices
 * (client_min_messages = log). Writes run inside a transaction that is rolled back.
 */
type Ids = { emptyUrl: string; filledUrl: string; readsProjectId: string; paymentId: string; token: string };

async function plansOf(url: string, ids: Ids, label: string, run: (db: pg.Client, ctx: { merchantId: string; cardProject: string }) => Promise<unknown>): Promise<string[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const plans: string[] = [];
  db.on('notice', (n) => {
    if (n.message?.includes('duration:')) plans.push(n.message);
  });
  try {
    const merchantId = (await db.query<{ merchant_id: string }>('SELECT merchant_id FROM projects WHERE id = $1', [ids.readsProjectId])).rows[0]!.merchant_id;
    const cardProject = (await db.query<{ id: string }>(`SELECT id FROM projects WHERE name = 'four cards on one phone'`)).rows[0]!.id;
    // Warm: one run without plans, so both databases are measured with their pages in cache.
    await db.query('BEGIN');
    await run(db, { merchantId, cardProject }).catch(() => undefined);
    await db.query('ROLLBACK');
    await db.query(`LOAD 'auto_explain'`);
    await db.query(`SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_buffers = on;
                    SET auto_explain.log_nested_statements = on; SET auto_explain.log_timing = on; SET client_min_messages = log`);
    await db.query('BEGIN');
    try {
      await run(db, { merchantId, cardProject });
    } catch (err) {
      plans.push(`(${label} failed: ${(err as Error).message})`);
    }
    await db.query('ROLLBACK');
    // BEGIN/ROLLBACK and the SETs log plans of their own (utility statements log none, but be sure).
    return plans.filter((p) => !/Query Text: (BEGIN|ROLLBACK|SET|LOAD)/.test(p));
  } finally {
    await db.end();
  }
}

export async function explainAll(ids: Ids): Promise<string[]> {
  const to = new Date();
  const from = new Date(to.getTime() - 30 * 86_400_000);
  const yearAgo = new Date(to.getTime() - 366 * 86_400_000);
  const cases: [string, (db: pg.Client, ctx: { merchantId: string; cardProject: string }) => Promise<unknown>][] = [
    ['GET /v1/payments/{id}', (db) => paymentOfProject(db, ids.paymentId, ids.readsProjectId)],
    ['GET /v1/checkout/{token}', (db) => checkoutSourceByToken(db, ids.token)],
    ['GET /v1/payments (page of 20 with total)', (db) => listOfProject(db, ids.readsProjectId, {}, 0, 20)],
    ['GET /v1/payments?from=30 days ago', (db) => listOfProject(db, ids.readsProjectId, { from }, 0, 20)],
    ['paymentStats, 30 days by day (project)', (db, c) => paymentStatsOf(db, { merchantId: c.merchantId, projectId: ids.readsProjectId, none: false }, true, from, to, 'DAY', 'total')],
    ['paymentStats, a year by month (merchant, live)', (db, c) => paymentStatsOf(db, { merchantId: c.merchantId, projectId: null, none: false }, false, yearAgo, to, 'MONTH', 'total')],
    [
      'export of payments, 30 days (first 1,000 rows)',
      (db, c) => db.query({ text: `${paymentsExport.text} LIMIT 1000`, values: [c.merchantId, ids.readsProjectId, false, from, to, null, null] }),
    ],
    [
      'create (create_payment and its statements)',
      (db, c) =>
        createPaymentRow(db, {
          paymentId: randomUUID(),
          projectId: c.cardProject,
          linkId: null,
          amount: 7_777_000n,
          currency: 'IRR',
          callbackUrl: 'https://shop.example.com/return',
          callbackHost: null,
          orderId: null,
          description: null,
          payerPhone: null,
          metadata: null,
          token: randomBytes(32).toString('base64url'),
          onlineMs: 86_400_000,
        }),
    ],
    ['expiry sweep claim (batch of 25)', (db) => db.query(CLAIM_DUE_PENDING, [25])],
  ];
  const out: string[] = ['#### EXPLAIN (ANALYZE, BUFFERS) of the hot statements (auto_explain; one warm run each, empty then filled)', ''];
  for (const [label, run] of cases) {
    for (const [side, url] of [['empty', ids.emptyUrl], ['filled', ids.filledUrl]] as const) {
      const plans = await plansOf(url, ids, label, run);
      out.push(`${label}, ${side} database:`, '', '```', ...plans.map((p) => p.trim()), '```', '');
    }
  }
  return out;
}
