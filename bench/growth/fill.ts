import pg from 'pg';

/**
 * A year of a merchant base, generated inside PostgreSQL (INSERT … SELECT over generate_series, no
 * row crosses the wire): `scale` 1 is 10 M payments, 20 M bank messages, 10 M webhook attempts.
 *
 * Shape, per scale unit: 2,000 merchants (so a merchant's year is the same ~5,000 payments at any
 * scale and only the tables grow), each with a live and a sandbox project, a phone, two cards per
 * project; the projects already in the database (the benchmark's shops, seeded through the API)
 * get the same history per card as the generated ones. Payments over the last 365 days: 60 %
 * confirmed (9 in 10 by a matched deposit, 1 in 10 by hand), 30 % expired, 5 % canceled, 5 %
 * rejected; a few dozen pending ones created in the last ten minutes, their amounts held. Every
 * payment has its amount hold (released once final), its event, and a webhook delivery with one
 * attempt or more (10 M attempts at scale 1); live ones their fee (reserved, debited into the
 * ledger, or released). Bank messages: one matched deposit per automatic confirmation (trusted,
 * balance chain per card; simulated in sandbox), the rest to 2 per payment one-time passwords and
 * private texts from other senders, withdrawals and unmatched deposits. Refunds on 1 % of
 * confirmed payments, audit events (5 per merchant per day); pg-boss's finished jobs: `fillQueue`.
 *
 * Triggers and foreign-key checks are off during the fill only (`session_replication_role =
 * replica`, this session): payments and bank_messages name each other through foreign keys that are
 * not deferrable (payments.confirmed_by_message_id, bank_messages.payment_id), so one of the two
 * could only be written by an UPDATE of millions of rows, and the per-row RI and guard triggers
 * would be most of the fill's time. What they hold is held here by construction instead (CHECKs
 * and unique indexes stay on: they are not triggers), and `verify` checks it afterwards: every
 * foreign key by anti-join, and the money invariants of test/support/sim/invariants.ts.
 *
 * As a bulk load is done: the big tables' secondary indexes (those that back no constraint: the
 * lookups, the partial indexes, the unique indexes that are not constraints) are dropped before the
 * rows go in and built again after, from their own definitions (`pg_get_indexdef`), each in one sort
 * instead of ten million random inserts; a unique one checks its rows as it is built, so the fill
 * cannot leave a duplicate the service's indexes would have refused. Primary keys and unique
 * constraints stay (foreign keys hang on them). At scale 0.01: 17 s instead of 93 s; at scale 1: 39 min (docs/BENCHMARKS.md "Scale 1").
 */

export type FillStep = { step: string; ms: number; rows: number };

const DAY = 86_400;

/** The tables the fill writes millions of rows into: their secondary indexes are built after the rows. */
const BULK_TABLES = ['payments', 'amount_holds', 'bank_messages', 'events', 'webhook_deliveries', 'webhook_attempts', 'audit_events', 'credit_ledger_entries', 'refunds'];

/** The secondary indexes of the bulk tables (no constraint rests on them): name and definition. */
async function secondaryIndexes(db: pg.Client): Promise<{ name: string; table: string; def: string }[]> {
  const { rows } = await db.query<{ name: string; table: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, i.indrelid::regclass::text AS table, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public' AND t.relname = ANY ($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
     ORDER BY t.relname, i.indexrelid::regclass::text`,
    [BULK_TABLES],
  );
  return rows;
}

export async function fill(databaseUrl: string, scale: number, log: (s: string) => void = () => undefined): Promise<FillStep[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const steps: FillStep[] = [];
  const run = async (step: string, sql: string, values: unknown[] = []) => {
    const t = Date.now();
    const r = await db.query(sql, values);
    const s = { step, ms: Date.now() - t, rows: r.rowCount ?? 0 };
    steps.push(s);
    log(`  ${step}: ${s.rows} rows, ${(s.ms / 1000).toFixed(1)} s`);
    return r;
  };
  const payments = Math.max(1000, Math.round(10_000_000 * scale));
  const merchants = Math.max(4, Math.round(2000 * scale));
  try {
    await db.query(`SET session_replication_role = replica`);
    await db.query(`SET maintenance_work_mem = '256MB'`);
    await db.query(`SET work_mem = '64MB'`);
    // GROWTH_BULK_INDEXES=0 keeps every index during the fill (each row then goes into each index).
    const deferred = process.env.GROWTH_BULK_INDEXES === '0' ? [] : await secondaryIndexes(db);
    if (deferred.length) await run(`indexes: drop ${deferred.length} secondary`, deferred.map((ix) => `DROP INDEX ${ix.name};`).join('\n'));
    // The fill's one clock: every generated time is before it.
    await run('clock', `CREATE TEMP TABLE g_now AS SELECT date_trunc('second', now()) AS now`);

    await run(
      'merchants',
      `INSERT INTO merchants (id, name, credit_balance, created_at)
       SELECT gen_random_uuid(), 'Growth merchant ' || m, 0, (SELECT now FROM g_now) - interval '400 days' FROM generate_series(1, $1) m`,
      [merchants],
    );
    await run(
      'projects',
      `INSERT INTO projects (merchant_id, name, sandbox, created_at)
       SELECT m.id, m.name || CASE s WHEN 0 THEN ' live' ELSE ' sandbox' END, s = 1, m.created_at
       FROM merchants m CROSS JOIN generate_series(0, 1) s WHERE m.name LIKE 'Growth merchant %'`,
    );
    await run(
      'devices',
      `INSERT INTO devices (merchant_id, name, token_hash, token_prefix, created_at)
       SELECT m.id, 'Phone', encode(sha256(convert_to(m.id::text, 'UTF8')), 'hex'), 'gw', m.created_at
       FROM merchants m WHERE m.name LIKE 'Growth merchant %'`,
    );
    await run(
      'cards',
      `INSERT INTO cards (project_id, merchant_id, device_id, bank_code, card_number, holder_name, created_at)
       SELECT p.id, p.merchant_id, CASE WHEN p.sandbox THEN NULL ELSE d.id END, 'mellat',
              lpad((6104330000000000 + row_number() OVER (ORDER BY p.id, k))::text, 16, '0'), 'Growth shop', p.created_at
       FROM projects p JOIN devices d ON d.merchant_id = p.merchant_id CROSS JOIN generate_series(1, 2) k
       WHERE p.name LIKE 'Growth merchant %'`,
    );
    await run(
      'webhook endpoints',
      `INSERT INTO webhook_endpoints (project_id, url, secret_ciphertext)
       SELECT p.id, 'https://shop.example.com/hooks', 'not-a-secret' FROM projects p
       WHERE p.name LIKE 'Growth merchant %' AND NOT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.project_id = p.id)`,
    );
    // Every card, numbered: the generated ones and the benchmark's shops' alike.
    await run(
      'card list',
      `CREATE TEMP TABLE g_cards AS
       SELECT row_number() OVER (ORDER BY c.id) - 1 AS n, c.id AS card_id, c.project_id, c.merchant_id, c.device_id, p.sandbox,
              match_scope(c.id, c.device_id) AS scope, p.late_window_seconds
       FROM cards c JOIN projects p ON p.id = c.project_id`,
    );
    await run('card list index', `CREATE UNIQUE INDEX ON g_cards (n)`);
    const cards = Number((await db.query('SELECT count(*) AS n FROM g_cards')).rows[0].n);
    // The live cards on a phone, numbered: where the phones' other messages come from.
    await run('live card list', `CREATE TEMP TABLE g_live AS SELECT row_number() OVER (ORDER BY card_id) - 1 AS n, * FROM (SELECT card_id, merchant_id, device_id FROM g_cards WHERE NOT sandbox AND device_id IS NOT NULL) c`);
    const liveCards = Number((await db.query('SELECT count(*) AS n FROM g_live')).rows[0].n);

    // The payments' plan, one row each: the last `pending` are pending, created in the last ten minutes.
    const pending = Math.max(20, Math.round(payments / 100_000) * 20);
    await run(
      'payment plan',
      `CREATE UNLOGGED TABLE g_pay AS
       SELECT i, gen_random_uuid() AS id, c.card_id, c.project_id, c.merchant_id, c.device_id, c.sandbox, c.scope,
              CASE WHEN i > $1 - $3 THEN 'pending'
                   WHEN h < 60 THEN 'confirmed' WHEN h < 90 THEN 'expired' WHEN h < 95 THEN 'canceled' ELSE 'rejected' END AS status,
              CASE WHEN i > $1 - $3 THEN 900000000 - ($1 - i) * 1000 ELSE 10000 * (1 + (i * 7919) % 1000) END::bigint AS amount_requested,
              CASE WHEN i > $1 - $3 THEN 10 ELSE 10 * (1 + (i * 104729) % 999) END AS code,
              CASE WHEN i > $1 - $3 THEN (SELECT now FROM g_now) - make_interval(secs => (i % 600))
                   ELSE (SELECT now FROM g_now) - make_interval(secs => 2 * ${DAY} + ((i::bigint * 2654435761) % (365 * ${DAY}))) END AS created_at,
              h, c.late_window_seconds
       FROM (SELECT i, (i * 37) % 100 AS h FROM generate_series(1, $1::bigint) i) s
       JOIN g_cards c ON c.n = (s.i * 31) % $2`,
      [payments, cards, pending],
    );
    await run('payment plan: message ids', `ALTER TABLE g_pay ADD COLUMN message_id uuid`);
    await run(
      'payment plan: matched deposits',
      `UPDATE g_pay SET message_id = gen_random_uuid() WHERE status = 'confirmed' AND h % 10 <> 0`,
    );
    await run('payment plan: analyze', `ANALYZE g_pay`);

    await run(
      'payments',
      `INSERT INTO payments (id, project_id, merchant_id, card_id, status, amount_requested, code, amount_final, amount_mode, currency,
                             order_id, callback_url, token, confirmation_source, confirmed_at, confirmed_by_message_id, amount_received,
                             verified_at, verify_count, expires_at, late_until, expired_at, canceled_at, rejected_at, reject_reason,
                             sandbox, fee_amount, fee_state, fee_stripe, refunded_amount, created_at, updated_at)
       SELECT g.id, g.project_id, g.merchant_id, g.card_id, g.status, g.amount_requested, g.code, g.amount_requested + g.code, 'unique_code', 'IRR',
              'order-' || g.i, 'https://shop.example.com/return',
              translate(rtrim(encode(sha256(convert_to('growth-' || g.id::text, 'UTF8')), 'base64'), '='), '+/', '-_'),
              CASE WHEN g.status = 'confirmed' THEN CASE WHEN g.message_id IS NULL THEN 'manual' ELSE 'auto_sms' END END,
              CASE WHEN g.status = 'confirmed' THEN g.created_at + make_interval(secs => 30 + g.i % 600) END,
              g.message_id,
              CASE WHEN g.status = 'confirmed' THEN g.amount_requested + g.code END,
              CASE WHEN g.status = 'confirmed' AND g.h % 2 = 0 THEN g.created_at + make_interval(secs => 700) END,
              CASE WHEN g.status = 'confirmed' AND g.h % 2 = 0 THEN 1 ELSE 0 END,
              g.created_at + interval '15 minutes',
              g.created_at + interval '15 minutes' + make_interval(secs => g.late_window_seconds),
              CASE WHEN g.status = 'expired' THEN g.created_at + interval '15 minutes 1 second' END,
              CASE WHEN g.status = 'canceled' THEN g.created_at + interval '2 minutes' END,
              CASE WHEN g.status = 'rejected' THEN g.created_at + interval '20 minutes' END,
              CASE WHEN g.status = 'rejected' THEN 'no deposit came' END,
              g.sandbox,
              CASE WHEN g.sandbox THEN 0 ELSE least(50000, greatest(1000, g.amount_requested / 100)) END,
              CASE WHEN g.sandbox THEN 'none' WHEN g.status = 'confirmed' THEN 'debited' WHEN g.status = 'pending' THEN 'reserved' ELSE 'released' END,
              CASE WHEN NOT g.sandbox THEN 0 END,
              0, g.created_at, g.created_at
       FROM g_pay g ORDER BY g.created_at`,
    );
    // Fresh statistics for the joins below (the fill's tables have none yet, and their lookup indexes come last).
    await run('payments: analyze', `ANALYZE payments`);
    await run(
      'amount holds',
      `INSERT INTO amount_holds (payment_id, scope, amount, held_until, released_at, created_at)
       SELECT p.id, g.scope, p.amount_final, p.late_until,
              CASE WHEN p.status <> 'pending' THEN coalesce(p.confirmed_at, p.canceled_at, p.rejected_at, p.late_until) END, p.created_at
       FROM g_pay g JOIN payments p ON p.id = g.id`,
    );
    // The reserved fees of the pending live payments sit on stripe 0 of their merchant, leased exactly.
    await run(
      'credit stripes',
      `INSERT INTO credit_stripes (merchant_id, stripe, lease, reserved)
       SELECT p.merchant_id, 0, sum(p.fee_amount), sum(p.fee_amount) FROM g_pay g JOIN payments p ON p.id = g.id
       WHERE g.status = 'pending' AND p.fee_state = 'reserved' GROUP BY p.merchant_id
       ON CONFLICT (merchant_id, stripe) DO UPDATE SET lease = credit_stripes.lease + excluded.lease, reserved = credit_stripes.reserved + excluded.reserved`,
    );
    // A top-up a year ago, then one fee debit per confirmed live payment; the running balance after each.
    await run(
      'ledger: top-ups',
      `INSERT INTO credit_ledger_entries (merchant_id, kind, amount, balance_after, note, created_at)
       SELECT DISTINCT merchant_id, 'topup', 100000000000, 100000000000, 'growth benchmark', (SELECT now FROM g_now) - interval '366 days'
       FROM g_pay WHERE NOT sandbox`,
    );
    await run(
      'ledger: fees',
      `INSERT INTO credit_ledger_entries (merchant_id, kind, amount, balance_after, payment_id, created_at)
       SELECT p.merchant_id, 'fee', -p.fee_amount,
              100000000000 - sum(p.fee_amount) OVER (PARTITION BY p.merchant_id ORDER BY p.confirmed_at, p.id),
              p.id, p.confirmed_at
       FROM g_pay g JOIN payments p ON p.id = g.id WHERE p.fee_state = 'debited' AND p.fee_amount > 0`,
    );
    await run(
      'merchants: balances',
      `UPDATE merchants m SET credit_balance = s.total
       FROM (SELECT merchant_id, sum(amount) AS total FROM credit_ledger_entries GROUP BY merchant_id) s
       WHERE s.merchant_id = m.id AND m.id IN (SELECT DISTINCT merchant_id FROM g_pay WHERE NOT sandbox)`,
    );
    // One matched deposit per automatic confirmation: trusted, its balance the card's running sum (live), or a simulation (sandbox).
    await run(
      'bank messages: matched deposits',
      `INSERT INTO bank_messages (id, merchant_id, device_id, project_id, card_id, payment_id, simulated, sender, body, body_sha256,
                                  received_at, status, bank_code, direction, amount, bank_time, balance, trusted, created_at, updated_at)
       SELECT x.message_id, x.merchant_id, x.device_id, x.project_id, x.card_id, x.id, x.sandbox, x.sender, x.body,
              encode(sha256(convert_to(x.body, 'UTF8')), 'hex'), x.at, 'matched', 'mellat', 'deposit', x.amount, x.at,
              CASE WHEN NOT x.sandbox THEN 1000000000 + sum(x.amount) OVER (PARTITION BY x.card_id ORDER BY x.at, x.message_id) END,
              NOT x.sandbox, x.at, x.at
       FROM (SELECT g.message_id, g.merchant_id, g.device_id, g.project_id, g.card_id, g.id, g.sandbox,
                    CASE WHEN g.sandbox THEN 'sandbox' ELSE '+98700717' END AS sender,
                    'واریز ' || p.amount_final || ' ریال به کارت ' || g.i || ' مانده ...' AS body,
                    p.confirmed_at - interval '5 seconds' AS at, p.amount_final AS amount
             FROM g_pay g JOIN payments p ON p.id = g.id WHERE g.message_id IS NOT NULL) x`,
    );
    const matched = Number((await db.query(`SELECT count(*) AS n FROM g_pay WHERE message_id IS NOT NULL`)).rows[0].n);
    const others = Math.max(0, 2 * payments - matched);
    await run(
      'bank messages: the rest',
      `INSERT INTO bank_messages (merchant_id, device_id, card_id, sender, body, body_sha256, received_at, status, status_reason,
                                  bank_code, direction, amount, created_at, updated_at)
       SELECT c.merchant_id, c.device_id, CASE WHEN k >= 70 THEN c.card_id END,
              CASE WHEN k < 70 THEN '+9891' || lpad((i % 10000000)::text, 8, '0') ELSE '+98700717' END, x.body,
              encode(sha256(convert_to(x.body, 'UTF8')), 'hex'), x.at,
              CASE WHEN k < 95 THEN 'ignored' ELSE 'unmatched' END,
              CASE WHEN k < 70 THEN 'not_a_bank_sender' WHEN k < 95 THEN 'not_a_deposit' ELSE 'no_payment' END,
              CASE WHEN k >= 70 THEN 'mellat' END,
              CASE WHEN k < 70 THEN NULL WHEN k < 95 THEN 'withdrawal' ELSE 'deposit' END,
              CASE WHEN k >= 70 THEN 10000 * (1 + i % 5000) END,
              x.at, x.at
       FROM (SELECT i, (i * 13) % 100 AS k FROM generate_series(1, $1::bigint) i) s
       JOIN g_live c ON c.n = (s.i * 17) % $2
       CROSS JOIN LATERAL (SELECT CASE WHEN s.k < 70 THEN 'کد ورود شما ' || (s.i * 7) % 1000000 || ' است. ' || s.i
                                       ELSE 'برداشت / واریز ' || s.i || ' ریال' END AS body,
                                  (SELECT now FROM g_now) - make_interval(secs => 60 + ((s.i::bigint * 2246822519) % (365 * ${DAY}))) AS at) x`,
      [others, liveCards],
    );
    await run(
      'events',
      `INSERT INTO events (project_id, payment_id, type, payload, created_at)
       SELECT p.project_id, p.id, 'payment.' || p.status,
              json_build_object('id', p.id, 'status', p.status, 'amountFinal', p.amount_final::text),
              coalesce(p.confirmed_at, p.expired_at, p.canceled_at, p.rejected_at)
       FROM g_pay g JOIN payments p ON p.id = g.id WHERE p.status <> 'pending'
       ORDER BY 5`,
    );
    // Every event to its project's endpoint (if it has one and wants that type): delivered, 1 in 10 after a retry.
    await run('events: analyze', `ANALYZE events`);
    await run(
      'webhook deliveries',
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, project_id, payment_id, event_type, status, attempt_count,
                                       last_attempt_at, delivered_at, created_at, updated_at)
       SELECT e.id, w.id, e.project_id, e.payment_id, e.type, 'succeeded', CASE WHEN e.seq % 10 = 0 THEN 2 ELSE 1 END,
              e.created_at + interval '1 second', e.created_at + interval '1 second', e.created_at, e.created_at
       FROM events e JOIN g_pay g ON g.id = e.payment_id JOIN webhook_endpoints w ON w.project_id = e.project_id AND e.type = ANY (w.events)`,
    );
    await run('webhook deliveries: analyze', `ANALYZE webhook_deliveries`);
    await run(
      'webhook attempts',
      `INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, duration_ms, response_status, response_excerpt, error)
       SELECT d.id, n, d.created_at + make_interval(secs => n - 1), 20 + (n * 37) % 400,
              CASE WHEN n < d.attempt_count THEN 503 ELSE 200 END,
              CASE WHEN n < d.attempt_count THEN 'Service Unavailable' ELSE '{"ok":true,"received":"' || d.id || '"}' END,
              NULL
       FROM webhook_deliveries d CROSS JOIN LATERAL generate_series(1, d.attempt_count) n
       WHERE d.event_id IN (SELECT e.id FROM events e JOIN g_pay g ON g.id = e.payment_id)`,
    );
    // 1 % of confirmed payments refunded in part (refunds_apply is a trigger: refunded_amount set here, checked by verify).
    await run(
      'refunds',
      `INSERT INTO refunds (merchant_id, project_id, payment_id, amount, destination_card, reference, created_at)
       SELECT p.merchant_id, p.project_id, p.id, p.amount_received / 2, '************' || lpad(((g.i * 7) % 10000)::text, 4, '0'),
              'R' || g.i, p.confirmed_at + interval '1 day'
       FROM g_pay g JOIN payments p ON p.id = g.id WHERE p.status = 'confirmed' AND g.i % 100 = 7 AND p.confirmed_at < (SELECT now FROM g_now) - interval '1 day'`,
    );
    await run(
      'payments: refunded amounts',
      `UPDATE payments p SET refunded_amount = r.amount FROM refunds r WHERE r.payment_id = p.id AND p.id IN (SELECT id FROM g_pay)`,
    );
    await run(
      'audit events',
      `INSERT INTO audit_events (at, actor_kind, actor_id, actor_label, via, merchant_id, project_id, action, subject_type, subject_id, changes)
       SELECT (SELECT now FROM g_now) - make_interval(secs => (k::bigint * 7919) % (365 * ${DAY})), 'user', NULL, 'owner@shop.example', 'dashboard',
              g.merchant_id, g.project_id, 'payment.confirmed', 'payment', g.id, '{"status":{"from":"pending","to":"confirmed"}}'::json
       FROM (SELECT k FROM generate_series(1, $1::bigint) k) s JOIN g_pay g ON g.i = 1 + (s.k * 11) % $2`,
      [Math.round(merchants * 365 * 5), payments - pending],
    );
    await run('drop plan', `DROP TABLE g_pay`);
    // The secondary indexes again, each built in one sort (unique ones check their rows as they are built).
    await db.query(`SET maintenance_work_mem = '1GB'`);
    for (const ix of deferred) await run(`index ${ix.name}`, ix.def);
    const rebuilt = new Map((await secondaryIndexes(db)).map((ix) => [ix.name, ix.def]));
    const lost = deferred.filter((ix) => rebuilt.get(ix.name) !== ix.def);
    if (lost.length) throw new Error(`indexes not rebuilt as they were: ${lost.map((ix) => ix.name).join(', ')}`);
  } finally {
    await db.end();
  }
  return steps;
}

/**
 * pg-boss's history: finished jobs (completed, 1 in 50 failed) over the last 7 days, three per
 * payment of those days (message processing, webhook delivery, notifications), as they sit in its
 * job table before pg-boss's own deletion (7 days) and the retention job remove them: at scale 1,
 * about 575,000 rows. Run after the service has started once on the database (pg-boss creates its
 * schema and queues then).
 */
export async function fillQueue(databaseUrl: string, scale: number, log: (s: string) => void = () => undefined): Promise<FillStep[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const queues = (await db.query<{ name: string }>(`SELECT name FROM pgboss.queue ORDER BY name`)).rows.map((r) => r.name);
    if (queues.length === 0) throw new Error('pg-boss has no queue yet: start the service on this database first');
    const rows = Math.max(1000, Math.round((3 * 10_000_000 * scale * 7) / 365));
    const t = Date.now();
    const r = await db.query(
      `INSERT INTO pgboss.job (id, name, data, state, created_on, start_after, started_on, completed_on, keep_until)
       SELECT gen_random_uuid(), ($2::text[])[1 + i % cardinality($2::text[])], json_build_object('n', i)::jsonb,
              (CASE WHEN i % 50 = 0 THEN 'failed' ELSE 'completed' END)::pgboss.job_state, at, at, at + interval '1 second', at + interval '2 seconds',
              now() + interval '14 days'
       FROM generate_series(1, $1::bigint) i CROSS JOIN LATERAL (SELECT now() - make_interval(secs => 60 + (i::bigint * 7919) % (7 * ${DAY})) AS at) x`,
      [rows, queues],
    );
    const step = { step: 'pg-boss finished jobs', ms: Date.now() - t, rows: r.rowCount ?? 0 };
    log(`  ${step.step}: ${step.rows} rows, ${(step.ms / 1000).toFixed(1)} s`);
    return [step];
  } finally {
    await db.end();
  }
}

/** Every foreign key of the public schema, checked by anti-join (they were off during the fill): the violations, by constraint. */
export async function checkForeignKeys(databaseUrl: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const fks = await db.query<{ name: string; child: string; parent: string; ccols: string[]; pcols: string[] }>(
      `SELECT c.conname AS name, c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
              array(SELECT attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY o)::text[] AS ccols,
              array(SELECT attname FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY o)::text[] AS pcols
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'f' AND n.nspname = 'public'`,
    );
    const broken: string[] = [];
    for (const fk of fks.rows) {
      const on = fk.ccols.map((c, i) => `p.${pg.escapeIdentifier(fk.pcols[i]!)} = c.${pg.escapeIdentifier(c)}`).join(' AND ');
      const notNull = fk.ccols.map((c) => `c.${pg.escapeIdentifier(c)} IS NOT NULL`).join(' AND ');
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM ${fk.child} c WHERE ${notNull} AND NOT EXISTS (SELECT 1 FROM ${fk.parent} p WHERE ${on})`);
      if (rows[0].n > 0) broken.push(`${fk.name}: ${rows[0].n} rows`);
    }
    return broken;
  } finally {
    await db.end();
  }
}
