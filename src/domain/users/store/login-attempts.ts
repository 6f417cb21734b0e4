import { statement } from '../../../db/statement.js';

/**
 * The sign-in attempts table (login-throttle.ts decides with them), on the pool, each statement
 * on its own (autocommit): an attempt is visible to every concurrent count as soon as it is written.
 */

export const insertLoginAttempt = statement<[email: string, ip: string], { id: string }>(
  'login-attempt-insert',
  `INSERT INTO login_attempts (email, ip) VALUES ($1, $2) RETURNING id`,
);

export type LoginAttemptCounts = { by_email: number; by_ip: number; email_free_in: number | null; ip_free_in: number | null };

/** The attempts in the window, this one included, and (seconds) when the oldest of each leaves it. */
export const countLoginAttempts = statement<[email: string, ip: string, windowMs: number], LoginAttemptCounts>(
  'login-attempt-count',
  `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email,
          count(*) FILTER (WHERE ip = $2)::int AS by_ip,
          ceil(extract(epoch FROM min(at) FILTER (WHERE email = $1) + make_interval(secs => $3 / 1000.0) - clock_timestamp()))::int AS email_free_in,
          ceil(extract(epoch FROM min(at) FILTER (WHERE ip = $2) + make_interval(secs => $3 / 1000.0) - clock_timestamp()))::int AS ip_free_in
     FROM login_attempts
    WHERE (email = $1 OR ip = $2) AND at > clock_timestamp() - make_interval(secs => $3 / 1000.0)`,
);

export const deleteLoginAttempt = statement<[id: string], never>('login-attempt-delete', `DELETE FROM login_attempts WHERE id = $1`);

/** Deletes the attempts older than `keepMs`: they no longer count for anything. */
export const pruneLoginAttempts = statement<[keepMs: number], never>(
  'login-attempt-prune',
  `DELETE FROM login_attempts WHERE at < clock_timestamp() - make_interval(secs => $1 / 1000.0)`,
);
