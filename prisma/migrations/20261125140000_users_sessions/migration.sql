-- Merchant users and their dashboard sessions (CONTRACT "Merchant users and the dashboard").
-- Passwords are stored as scrypt hashes (src/domain/users/password.ts); session and set-password
-- tokens only as SHA-256, so a copy of this database opens no dashboard.

CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id   uuid NOT NULL REFERENCES merchants(id),
  -- Kept as typed (trimmed, lower case); one account per address across every merchant.
  email         text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  role          text NOT NULL CHECK (role IN ('owner', 'staff', 'viewer')),
  -- Null until the user follows the set-password link.
  password_hash text,
  password_set_at timestamptz(3),
  created_at    timestamptz(3) NOT NULL DEFAULT now(),
  updated_at    timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_merchant_idx ON users (merchant_id);

CREATE TABLE sessions (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id      uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash   text NOT NULL UNIQUE,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  -- Idle expiry counts from here (12 h); stamped at most once a minute.
  last_seen_at timestamptz(3) NOT NULL DEFAULT now(),
  -- The absolute end (created_at + 7 days), whatever the activity.
  expires_at   timestamptz(3) NOT NULL,
  revoked_at   timestamptz(3),
  user_agent   text,
  ip           text,
  CHECK (expires_at > created_at)
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE set_password_tokens (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at timestamptz(3) NOT NULL,
  -- Single use: set by the one request that spends it.
  used_at    timestamptz(3)
);
CREATE INDEX set_password_tokens_user_idx ON set_password_tokens (user_id);

-- Failed logins (and attempts in flight), for the throttle: 10 per email and 10 per address per
-- 15 minutes. Emails are kept as typed (lower case), whether or not an account has them.
CREATE TABLE login_attempts (
  id    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  ip    text NOT NULL,
  at    timestamptz(3) NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX login_attempts_email_idx ON login_attempts (email, at);
CREATE INDEX login_attempts_ip_idx ON login_attempts (ip, at);
CREATE INDEX login_attempts_at_idx ON login_attempts (at);

-- A session ended, a user removed or given another role: every API process drops what it cached
-- and ends the subscriptions the old credential opened (notify_credential_change, migration money_integrity).
CREATE TRIGGER sessions_credential_change AFTER UPDATE OF revoked_at ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
CREATE TRIGGER users_credential_change AFTER UPDATE OF role, password_hash OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
