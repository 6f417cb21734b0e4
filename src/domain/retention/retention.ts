import type pg from 'pg';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { isSomeBanksSender } from '../sms/senders.js';

/**
 * Retention (docs/operations.md "Retention"): what the service stops keeping, and when. Forwarders
 * send every SMS the phone receives, one-time passwords and private texts included; webhook
 * answers may carry a shop's internals; sessions and sign-in attempts hold addresses. None of these
 * is a money record. Payments, refunds, matched or decided messages, audit events and the ledger
 * are never touched: every statement below names what it may change, and the rows it may not are
 * excluded by their state, not by a date.
 */
export type RetentionPeriods = Config['retention'];

/** What one run removed, by kind (the log line, the `retention_runs` row, /metrics). */
export type Removed = {
  smsBodies: number;
  webhookBodies: number;
  sessions: number;
  loginAttempts: number;
  setPasswordTokens: number;
  jobs: number;
};

export const REMOVED_BODY = '[removed]';
/** Rows changed per statement: a year of backlog is worked through in short transactions. */
const BATCH = 1_000;

/**
 * Messages that matched nothing and were decided by nobody, old enough, whose body is still there:
 * the candidates. Whether the sender is some bank's is the TypeScript rule (`isSomeBanksSender`),
 * applied to each. A message that anything points to (a duplicate, a refund, a balance gap) stays.
 */
const FOREIGN_CANDIDATES = `
  SELECT m.id, m.sender, m.created_at, COALESCE(array_agg(c.sms_sender) FILTER (WHERE c.sms_sender IS NOT NULL), '{}') AS vouched
    FROM bank_messages m
    LEFT JOIN cards c ON c.merchant_id = m.merchant_id
   WHERE m.created_at < now() - make_interval(days => $1)
     AND (m.created_at, m.id) > ($2::timestamptz, $3::uuid)
     AND m.body <> '${REMOVED_BODY}'
     AND m.status IN ('unparsed', 'ignored', 'unmatched')
     AND m.payment_id IS NULL AND m.decided_at IS NULL AND NOT m.simulated
     AND NOT EXISTS (SELECT 1 FROM bank_messages d WHERE d.duplicate_of_id = m.id)
     AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.bank_message_id = m.id)
     AND NOT EXISTS (SELECT 1 FROM balance_gaps g WHERE m.id IN (g.from_message_id, g.to_message_id, g.explained_by_message_id))
   GROUP BY m.id
   ORDER BY m.created_at, m.id
   LIMIT ${BATCH}`;

async function blankForeignMessages(pool: pg.Pool, days: number): Promise<number> {
  let removed = 0;
  // Walks forward by creation time: a bank's message left as it is is not read again.
  let after: [Date, string] = [new Date(0), '00000000-0000-0000-0000-000000000000'];
  for (;;) {
    const { rows } = await pool.query<{ id: string; sender: string; created_at: Date; vouched: string[] }>(FOREIGN_CANDIDATES, [days, ...after]);
    if (rows.length === 0) return removed;
    after = [rows.at(-1)!.created_at, rows.at(-1)!.id];
    const foreign = rows.filter((r) => !isSomeBanksSender(r.sender, r.vouched)).map((r) => r.id);
    if (foreign.length > 0) {
      // The state is checked again in the statement: a message matched or decided since it was read stays.
      const res = await pool.query(
        `UPDATE bank_messages SET body = '${REMOVED_BODY}', body_raw = NULL
          WHERE id = ANY($1::uuid[]) AND body <> '${REMOVED_BODY}'
            AND status IN ('unparsed', 'ignored', 'unmatched') AND payment_id IS NULL AND decided_at IS NULL`,
        [foreign],
      );
      removed += res.rowCount ?? 0;
    }
    if (rows.length < BATCH) return removed;
  }
}

/** Deletes (or blanks) in batches until a statement changes fewer than a batch. */
async function inBatches(pool: pg.Pool, sql: string, values: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const res = await pool.query(sql, values);
    total += res.rowCount ?? 0;
    if ((res.rowCount ?? 0) < BATCH) return total;
  }
}

export async function runRetention(pool: pg.Pool, periods: RetentionPeriods, log: Logger): Promise<Removed> {
  const removed: Removed = {
    smsBodies: await blankForeignMessages(pool, periods.foreignSmsDays),
    // The attempt row stays (when, how long, the status); what the shop's server answered goes.
    webhookBodies: await inBatches(
      pool,
      `UPDATE webhook_attempts SET response_excerpt = NULL
        WHERE id IN (SELECT id FROM webhook_attempts WHERE response_excerpt IS NOT NULL AND started_at < now() - make_interval(days => $1) LIMIT ${BATCH})`,
      [periods.webhookBodyDays],
    ),
    sessions: await inBatches(
      pool,
      `DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE GREATEST(expires_at, COALESCE(revoked_at, expires_at)) < now() - make_interval(days => $1) LIMIT ${BATCH})`,
      [periods.sessionDays],
    ),
    loginAttempts: await inBatches(
      pool,
      `DELETE FROM login_attempts WHERE id IN (SELECT id FROM login_attempts WHERE at < now() - make_interval(days => $1) LIMIT ${BATCH})`,
      [periods.sessionDays],
    ),
    setPasswordTokens: await inBatches(
      pool,
      `DELETE FROM set_password_tokens WHERE id IN (SELECT id FROM set_password_tokens WHERE used_at IS NOT NULL AND used_at < now() - make_interval(days => $1) LIMIT ${BATCH})`,
      [periods.sessionDays],
    ),
    // pg-boss deletes finished jobs after its own deleteAfterSeconds (7 days by default) as well;
    // this makes the period the operator's and counts what went.
    jobs: await inBatches(
      pool,
      `DELETE FROM pgboss.job WHERE id IN (SELECT id FROM pgboss.job WHERE state IN ('completed', 'cancelled', 'failed') AND completed_on < now() - make_interval(days => $1) LIMIT ${BATCH})`,
      [periods.jobDays],
    ),
  };
  await pool.query('INSERT INTO retention_runs (removed) VALUES ($1)', [JSON.stringify(removed)]);
  log.info({ removed, periods }, 'retention: removed what is past its period');
  return removed;
}

/** What the last run removed and when, for /metrics (any process may scrape it). */
export async function lastRetentionRun(pool: pg.Pool): Promise<{ ranAt: Date; removed: Removed } | null> {
  const { rows } = await pool.query<{ ran_at: Date; removed: Removed }>('SELECT ran_at, removed FROM retention_runs ORDER BY ran_at DESC LIMIT 1');
  return rows[0] ? { ranAt: rows[0].ran_at, removed: rows[0].removed } : null;
}
