import type pg from 'pg';

/**
 * The retention job's statements (src/domain/retention/retention.ts). Each changes at most
 * RETENTION_BATCH rows and names the states it may change, so a row matched or decided while the
 * job runs is left as it is.
 */
export const RETENTION_BATCH = 1_000;
export const REMOVED_BODY = '[removed]';

/** The states of a message nothing depends on: it matched nothing and nobody decided it. */
const UNDECIDED = `status IN ('unparsed', 'ignored', 'unmatched') AND payment_id IS NULL AND decided_at IS NULL`;

/**
 * Messages older than `days`, after `after` (creation time, id), whose text is still there, that
 * matched nothing, were decided by nobody and that nothing points to (a copy, a refund, a balance
 * gap), with the senders the merchant vouched for on its cards.
 */
export async function foreignCandidates(pool: pg.Pool, days: number, after: [Date, string]) {
  const { rows } = await pool.query<{ id: string; sender: string; created_at: Date; vouched: string[] }>(
    `SELECT m.id, m.sender, m.created_at,
            COALESCE(array_agg(c.sms_sender) FILTER (WHERE c.sms_sender IS NOT NULL), '{}') AS vouched
       FROM bank_messages m
       LEFT JOIN cards c ON c.merchant_id = m.merchant_id
      WHERE m.created_at < now() - make_interval(days => $1)
        AND (m.created_at, m.id) > ($2::timestamptz, $3::uuid)
        AND m.body <> '${REMOVED_BODY}' AND NOT m.simulated
        AND m.status IN ('unparsed', 'ignored', 'unmatched') AND m.payment_id IS NULL AND m.decided_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM bank_messages d WHERE d.duplicate_of_id = m.id)
        AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.bank_message_id = m.id)
        AND NOT EXISTS (SELECT 1 FROM balance_gaps g WHERE m.id IN (g.from_message_id, g.to_message_id, g.explained_by_message_id))
      GROUP BY m.id
      ORDER BY m.created_at, m.id
      LIMIT ${RETENTION_BATCH}`,
    [days, ...after],
  );
  return rows;
}

/** Their text replaced by REMOVED_BODY, if they are still undecided. */
export async function blankMessages(pool: pg.Pool, ids: string[]): Promise<number> {
  const res = await pool.query(
    `UPDATE bank_messages SET body = '${REMOVED_BODY}', body_raw = NULL WHERE id = ANY($1::uuid[]) AND body <> '${REMOVED_BODY}' AND ${UNDECIDED}`,
    [ids],
  );
  return res.rowCount ?? 0;
}

/** What shops' servers answered, older than `days`; the attempt row stays. */
export async function emptyWebhookAnswers(pool: pg.Pool, days: number): Promise<number> {
  const res = await pool.query(
    `UPDATE webhook_attempts SET response_excerpt = NULL
      WHERE id IN (SELECT id FROM webhook_attempts WHERE response_excerpt IS NOT NULL AND started_at < now() - make_interval(days => $1) LIMIT ${RETENTION_BATCH})`,
    [days],
  );
  return res.rowCount ?? 0;
}

/** Sessions that ended (expired or revoked) more than `days` ago. */
export async function deleteOldSessions(pool: pg.Pool, days: number): Promise<number> {
  const res = await pool.query(
    `DELETE FROM sessions WHERE id IN (
       SELECT id FROM sessions WHERE LEAST(expires_at, COALESCE(revoked_at, expires_at)) < now() - make_interval(days => $1) LIMIT ${RETENTION_BATCH})`,
    [days],
  );
  return res.rowCount ?? 0;
}

export async function deleteOldLoginAttempts(pool: pg.Pool, days: number): Promise<number> {
  const res = await pool.query(
    `DELETE FROM login_attempts WHERE id IN (SELECT id FROM login_attempts WHERE at < now() - make_interval(days => $1) LIMIT ${RETENTION_BATCH})`,
    [days],
  );
  return res.rowCount ?? 0;
}

export async function deleteUsedSetPasswordTokens(pool: pg.Pool, days: number): Promise<number> {
  const res = await pool.query(
    `DELETE FROM set_password_tokens WHERE id IN (
       SELECT id FROM set_password_tokens WHERE used_at IS NOT NULL AND used_at < now() - make_interval(days => $1) LIMIT ${RETENTION_BATCH})`,
    [days],
  );
  return res.rowCount ?? 0;
}

/**
 * pg-boss's finished jobs (completed, failed, cancelled) older than `days`. pg-boss deletes them
 * after its own deleteAfterSeconds too (7 days by default); this makes the period the operator's and
 * counts what went.
 */
export async function deleteFinishedJobs(pool: pg.Pool, days: number): Promise<number> {
  const res = await pool.query(
    `DELETE FROM pgboss.job WHERE id IN (
       SELECT id FROM pgboss.job WHERE state IN ('completed', 'cancelled', 'failed') AND completed_on < now() - make_interval(days => $1) LIMIT ${RETENTION_BATCH})`,
    [days],
  );
  return res.rowCount ?? 0;
}

/**
 * Chat notifications that carried buttons (their text: amounts, order ids) older than `days`, with
 * their buttons; a press of one answers that the button is no longer valid. The decisions they led
 * to are in the audit log.
 */
export async function deleteOldChatPrompts(pool: pg.Pool, days: number): Promise<number> {
  const res = await pool.query(
    `DELETE FROM chat_prompts WHERE id IN (SELECT id FROM chat_prompts WHERE created_at < now() - make_interval(days => $1) LIMIT ${RETENTION_BATCH})`,
    [days],
  );
  return res.rowCount ?? 0;
}

export async function recordRun(pool: pg.Pool, removed: object): Promise<void> {
  await pool.query('INSERT INTO retention_runs (removed) VALUES ($1)', [JSON.stringify(removed)]);
}

export async function lastRun(pool: pg.Pool): Promise<{ ran_at: Date; removed: Record<string, number> } | null> {
  const { rows } = await pool.query<{ ran_at: Date; removed: Record<string, number> }>('SELECT ran_at, removed FROM retention_runs ORDER BY ran_at DESC LIMIT 1');
  return rows[0] ?? null;
}
