import { statement } from '../../../db/statement.js';

/**
 * The sign-in attempts table (login-throttle.ts decides with them), on the pool, each statement
 * on its own (autocommit): an attempt is visible to every concurrent count as soon as it is written.
 */

export const insertLoginAttempt = statement<[email: string, ip: string, deviceId: string | null], { id: string }>(
  'login-attempt-insert',
  `INSERT INTO login_attempts (email, ip, device_id) VALUES ($1, $2, $3::uuid) RETURNING id`,
);

/**
 * The attempts in the window, this one included, of the three counters the throttle keeps, and
 * (seconds) when the oldest of each leaves it: `by_pair` this email from this address and
 * `by_ip` this address, both without a device; `by_device` this email from this trusted device.
 */
export type LoginAttemptCounts = {
  by_pair: number;
  by_ip: number;
  by_device: number;
  pair_free_in: number | null;
  ip_free_in: number | null;
  device_free_in: number | null;
};

export const countLoginAttempts = statement<[email: string, ip: string, deviceId: string | null, windowMs: number], LoginAttemptCounts>(
  'login-attempt-count',
  `WITH recent AS (
     SELECT email, ip, device_id, at FROM login_attempts
      WHERE (ip = $2 OR device_id = $3::uuid) AND at > clock_timestamp() - make_interval(secs => $4 / 1000.0)
   )
   SELECT count(*) FILTER (WHERE email = $1 AND ip = $2 AND device_id IS NULL)::int AS by_pair,
          count(*) FILTER (WHERE ip = $2 AND device_id IS NULL)::int AS by_ip,
          count(*) FILTER (WHERE email = $1 AND device_id = $3::uuid)::int AS by_device,
          ceil(extract(epoch FROM min(at) FILTER (WHERE email = $1 AND ip = $2 AND device_id IS NULL) + make_interval(secs => $4 / 1000.0) - clock_timestamp()))::int AS pair_free_in,
          ceil(extract(epoch FROM min(at) FILTER (WHERE ip = $2 AND device_id IS NULL) + make_interval(secs => $4 / 1000.0) - clock_timestamp()))::int AS ip_free_in,
          ceil(extract(epoch FROM min(at) FILTER (WHERE email = $1 AND device_id = $3::uuid) + make_interval(secs => $4 / 1000.0) - clock_timestamp()))::int AS device_free_in
     FROM recent`,
);

export const deleteLoginAttempt = statement<[id: string], never>('login-attempt-delete', `DELETE FROM login_attempts WHERE id = $1`);

/** Deletes the attempts older than `keepMs`: they no longer count for anything. */
export const pruneLoginAttempts = statement<[keepMs: number], never>(
  'login-attempt-prune',
  `DELETE FROM login_attempts WHERE at < clock_timestamp() - make_interval(secs => $1 / 1000.0)`,
);
