import type pg from 'pg';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { isSomeBanksSender } from '../sms/senders.js';
import {
  blankMessages,
  deleteFinishedJobs,
  deleteOldChatPrompts,
  deleteOldLoginAttempts,
  deleteOldSessions,
  deleteUsedSetPasswordTokens,
  emptyWebhookAnswers,
  foreignCandidates,
  lastRun,
  recordRun,
  RETENTION_BATCH,
} from './store/retention.js';

export { REMOVED_BODY } from './store/retention.js';

/**
 * Retention (docs/operations.md "Retention"): what the service stops keeping, and when. Forwarders
 * send every SMS the phone receives, one-time passwords and private texts included; webhook
 * answers may carry a shop's internals; sessions and sign-in attempts hold addresses. None of these
 * is a money record. Payments, refunds, matched or decided messages, audit events and the ledger
 * are never touched: every statement (store/retention.ts) names what it may change, and the rows it
 * may not are excluded by their state, not by a date.
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
  chatPrompts: number;
};

/**
 * The candidates (old, matched nothing, decided by nobody, pointed to by nothing) whose sender is no
 * bank's (`isSomeBanksSender`, the one sender rule) lose their text. Walks forward by (creation
 * time, id): a bank's message left as it is is not read again.
 */
async function blankForeignMessages(pool: pg.Pool, days: number): Promise<number> {
  let removed = 0;
  let after: [Date, string] = [new Date(0), '00000000-0000-0000-0000-000000000000'];
  for (;;) {
    const rows = await foreignCandidates(pool, days, after);
    if (rows.length === 0) return removed;
    after = [rows.at(-1)!.created_at, rows.at(-1)!.id];
    const foreign = rows.filter((r) => !isSomeBanksSender(r.sender, r.vouched)).map((r) => r.id);
    if (foreign.length > 0) removed += await blankMessages(pool, foreign);
    if (rows.length < RETENTION_BATCH) return removed;
  }
}

/** Runs a batched statement until it changes fewer rows than a batch. */
async function untilDone(step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < RETENTION_BATCH) return total;
  }
}

export async function runRetention(pool: pg.Pool, periods: RetentionPeriods, log: Logger): Promise<Removed> {
  const removed: Removed = {
    smsBodies: await blankForeignMessages(pool, periods.foreignSmsDays),
    webhookBodies: await untilDone(() => emptyWebhookAnswers(pool, periods.webhookBodyDays)),
    sessions: await untilDone(() => deleteOldSessions(pool, periods.sessionDays)),
    loginAttempts: await untilDone(() => deleteOldLoginAttempts(pool, periods.sessionDays)),
    setPasswordTokens: await untilDone(() => deleteUsedSetPasswordTokens(pool, periods.sessionDays)),
    jobs: await untilDone(() => deleteFinishedJobs(pool, periods.jobDays)),
    chatPrompts: await untilDone(() => deleteOldChatPrompts(pool, periods.chatDays)),
  };
  await recordRun(pool, removed);
  log.info({ removed, periods }, 'retention: removed what is past its period');
  return removed;
}

/** What the last run removed and when, for /metrics (any process may scrape it). */
export async function lastRetentionRun(pool: pg.Pool): Promise<{ ranAt: Date; removed: Removed } | null> {
  const row = await lastRun(pool);
  return row ? { ranAt: row.ran_at, removed: row.removed as Removed } : null;
}
