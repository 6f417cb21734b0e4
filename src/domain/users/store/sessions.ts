import { statement, type Queryable } from '../../../db/statement.js';
import { SESSION_IDLE_MS, SESSION_TOUCH_MS } from '../session-rules.js';

/** A session and the state of everything above it, in one row (one indexed lookup by hash). */
export type SessionRow = {
  id: string;
  user_id: string;
  merchant_id: string;
  role: string;
  merchant_active: boolean;
  /** The merchant requires two-factor and the user has not set it up (src/domain/auth/roles.ts). */
  must_set_up_totp: boolean;
  /** Not revoked, not idle for 12 h, not past its absolute end: by the database's clock. */
  live: boolean;
  /** last_seen_at is older than the touch interval. */
  stale: boolean;
};

const byHash = statement<[string, number, number], SessionRow>(
  'auth-session',
  `SELECT s.id, s.user_id, u.merchant_id, u.role, m.active AS merchant_active,
          m.require_totp AND u.totp_enabled_at IS NULL AS must_set_up_totp,
          s.revoked_at IS NULL AND s.expires_at > now() AND s.last_seen_at > now() - make_interval(secs => $2 / 1000.0) AS live,
          s.last_seen_at < now() - make_interval(secs => $3 / 1000.0) AS stale
     FROM sessions s JOIN users u ON u.id = s.user_id JOIN merchants m ON m.id = u.merchant_id
    WHERE s.token_hash = $1`,
  { prepare: true },
);

const touch = statement<[string], never>('auth-session-touch', `UPDATE sessions SET last_seen_at = now() WHERE id = $1 AND revoked_at IS NULL`);

export async function sessionByHash(db: Queryable, hash: string): Promise<SessionRow | undefined> {
  const [row] = await byHash(db, hash, SESSION_IDLE_MS, SESSION_TOUCH_MS);
  return row;
}

export async function touchSession(db: Queryable, id: string): Promise<void> {
  await touch(db, id);
}

const liveById = statement<[string, number], { ok: boolean; role: string }>(
  'session-still-live',
  `SELECT s.revoked_at IS NULL AND s.expires_at > now() AND s.last_seen_at > now() - make_interval(secs => $2 / 1000.0) AND m.active AS ok, u.role
     FROM sessions s JOIN users u ON u.id = s.user_id JOIN merchants m ON m.id = u.merchant_id
    WHERE s.id = $1`,
);

/**
 * Whether a session still stands with the role it was opened under (long-lived subscriptions ask
 * again on every credential change; a changed role ends them, and the client reconnects).
 */
export async function sessionStillLive(db: Queryable, id: string, role: string): Promise<boolean> {
  const [row] = await liveById(db, id, SESSION_IDLE_MS);
  return Boolean(row?.ok && row.role === role);
}
