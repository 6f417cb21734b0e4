import type { Queryable } from '../../db/statement.js';
import { AppError } from '../../errors.js';
import { countLoginAttempts, deleteLoginAttempt, insertLoginAttempt, pruneLoginAttempts } from './store/login-attempts.js';
import { pruneTrustedDevices } from './store/trusted-devices.js';

/**
 * Failed sign-ins (docs/security.md "Signing in"), counted in PostgreSQL (so across every API
 * process), whether or not the email has an account. Three counters, none of them the email's
 * alone, so that nobody can lock an owner out by failing for their email from elsewhere:
 * - from a browser without the user's device cookie: 10 per email from one client address, and
 *   100 per address across emails, in any 15 minutes;
 * - from a browser with it (a trusted device, bound to the user): 10 per email from that device,
 *   whatever its address, and nothing that happened elsewhere counts.
 * A refusal is 429 `rate_limited` with the seconds until one may try again, for that email from
 * that address (or device) only.
 *
 * An attempt is written before its password is checked and counted right after, each statement
 * on its own: so of any number of attempts racing on one counter, at most 10 can see 10 or fewer
 * and go on to the check (the last of them to count sees every one of them). A refused attempt
 * and a successful one are deleted; a failed one stays as the record of the failure.
 */
export const LOGIN_FAILURES_ALLOWED = 10;
export const LOGIN_FAILURES_PER_ADDRESS = 100;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
// Rows older than this are deleted now and then; they no longer count for anything.
const KEEP_MS = 24 * 60 * 60 * 1000;

/** Where an attempt comes from: the client address, and the trusted device of this email's user, if the browser holds one. */
export type LoginSource = { ip: string; deviceId: string | null };

export type LoginAttempt = {
  /** The attempt is not a failure (the password was right): it stops counting. */
  succeeded: () => Promise<void>;
};

/** Counts an attempt in, or refuses it with 429 `rate_limited` and the seconds until one may try again. */
export async function admitLoginAttempt(db: Queryable, email: string, source: LoginSource): Promise<LoginAttempt> {
  if (Math.random() < 1 / 64) {
    await pruneLoginAttempts(db, KEEP_MS);
    await pruneTrustedDevices(db);
  }
  const [attempt] = await insertLoginAttempt(db, email, source.ip, source.deviceId);
  const id = attempt!.id;
  const [counts] = await countLoginAttempts(db, email, source.ip, source.deviceId, LOGIN_WINDOW_MS);
  const over = (count: number | undefined, allowed: number, freeIn: number | null | undefined) => (count !== undefined && count > allowed ? (freeIn ?? 1) : null);
  const waits = (
    source.deviceId
      ? [over(counts?.by_device, LOGIN_FAILURES_ALLOWED, counts?.device_free_in)]
      : [over(counts?.by_pair, LOGIN_FAILURES_ALLOWED, counts?.pair_free_in), over(counts?.by_ip, LOGIN_FAILURES_PER_ADDRESS, counts?.ip_free_in)]
  ).filter((w): w is number => w !== null);
  if (waits.length) {
    await deleteLoginAttempt(db, id);
    const retryAfterSeconds = Math.max(1, ...waits);
    throw new AppError('rate_limited', `Too many failed sign-ins; retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
  return { succeeded: () => deleteLoginAttempt(db, id).then(() => undefined) };
}
