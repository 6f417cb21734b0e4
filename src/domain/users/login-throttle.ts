import type { Queryable } from '../../db/statement.js';
import { AppError } from '../../errors.js';
import { countLoginAttempts, deleteLoginAttempt, insertLoginAttempt, pruneLoginAttempts } from './store/login-attempts.js';

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

export type LoginAttempt = {
  /** The password was right: the attempt is not a failure. */
  succeeded: () => Promise<void>;
};

/** Counts an attempt in, or refuses it with 429 `rate_limited` and the seconds until one may try again. */
export async function admitLoginAttempt(db: Queryable, email: string, ip: string): Promise<LoginAttempt> {
  if (Math.random() < 1 / 64) await pruneLoginAttempts(db, KEEP_MS);
  const [attempt] = await insertLoginAttempt(db, email, ip);
  const id = attempt!.id;
  const [counts] = await countLoginAttempts(db, email, ip, LOGIN_WINDOW_MS);
  const waits = [
    counts && counts.by_email > LOGIN_FAILURES_ALLOWED ? counts.email_free_in : null,
    counts && counts.by_ip > LOGIN_FAILURES_ALLOWED ? counts.ip_free_in : null,
  ].filter((w): w is number => w !== null);
  if (waits.length) {
    await deleteLoginAttempt(db, id);
    const retryAfterSeconds = Math.max(1, ...waits);
    throw new AppError('rate_limited', `Too many failed sign-ins; retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
  return { succeeded: () => deleteLoginAttempt(db, id).then(() => undefined) };
}
