import { statement, type Queryable } from '../../db/statement.js';
import { AppError } from '../../errors.js';

/**
 * Failed sign-ins: at most 10 per email and 10 per client address in any 15 minutes, counted in
 * PostgreSQL (so across every API process), whether or not the email has an account.
 *
 * An attempt is written before its password is checked and counted right after, each statement
 * on its own: so of any number of attempts racing for one email, at most 10 can see 10 or fewer
 * and go on to the check (the last of them to count sees every one of them). A refused attempt
 * and a successful one are deleted; a failed one stays as the record of the failure.
 */
export const LOGIN_FAILURES_ALLOWED = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
// Rows older than this are deleted now and then; they no longer count for anything.
const KEEP_MS = 24 * 60 * 60 * 1000;

const insertAttempt = statement<[string, string], { id: string }>(
  'login-attempt-insert',
  `INSERT INTO login_attempts (email, ip) VALUES ($1, $2) RETURNING id`,
);

type Counts = { by_email: number; by_ip: number; email_free_in: number | null; ip_free_in: number | null };

// The attempts in the window, this one included, and (seconds) when the oldest of each leaves it.
const countAttempts = statement<[string, string, number], Counts>(
  'login-attempt-count',
  `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email,
          count(*) FILTER (WHERE ip = $2)::int AS by_ip,
          ceil(extract(epoch FROM min(at) FILTER (WHERE email = $1) + make_interval(secs => $3 / 1000.0) - clock_timestamp()))::int AS email_free_in,
          ceil(extract(epoch FROM min(at) FILTER (WHERE ip = $2) + make_interval(secs => $3 / 1000.0) - clock_timestamp()))::int AS ip_free_in
     FROM login_attempts
    WHERE (email = $1 OR ip = $2) AND at > clock_timestamp() - make_interval(secs => $3 / 1000.0)`,
);

const deleteAttempt = statement<[string], never>('login-attempt-delete', `DELETE FROM login_attempts WHERE id = $1`);
const pruneAttempts = statement<[number], never>(
  'login-attempt-prune',
  `DELETE FROM login_attempts WHERE at < clock_timestamp() - make_interval(secs => $1 / 1000.0)`,
);

export type LoginAttempt = {
  /** The password was right: the attempt is not a failure. */
  succeeded: () => Promise<void>;
};

/** Counts an attempt in, or refuses it with 429 `rate_limited` and the seconds until one may try again. */
export async function admitLoginAttempt(db: Queryable, email: string, ip: string): Promise<LoginAttempt> {
  if (Math.random() < 1 / 64) await pruneAttempts(db, KEEP_MS);
  const [attempt] = await insertAttempt(db, email, ip);
  const id = attempt!.id;
  const [counts] = await countAttempts(db, email, ip, LOGIN_WINDOW_MS);
  const waits = [
    counts && counts.by_email > LOGIN_FAILURES_ALLOWED ? counts.email_free_in : null,
    counts && counts.by_ip > LOGIN_FAILURES_ALLOWED ? counts.ip_free_in : null,
  ].filter((w): w is number => w !== null);
  if (waits.length) {
    await deleteAttempt(db, id);
    const retryAfterSeconds = Math.max(1, ...waits);
    throw new AppError('rate_limited', `Too many failed sign-ins; retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
  return { succeeded: () => deleteAttempt(db, id).then(() => undefined) };
}
