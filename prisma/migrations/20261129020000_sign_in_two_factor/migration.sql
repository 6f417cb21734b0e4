-- Two-factor sign-in (TOTP) and the sign-in throttle per email and address with a device cookie
-- (docs/security.md "Signing in").

-- The TOTP secret is sealed like webhook secrets (src/domain/auth/secret-box.ts). Set and not
-- enabled: a pending set-up waiting for its first code. totp_last_step is the 30-second step of
-- the last code accepted: a code of that step or an earlier one is never accepted again.
ALTER TABLE users
  ADD COLUMN totp_secret     text,
  ADD COLUMN totp_enabled_at timestamptz(3),
  ADD COLUMN totp_last_step  bigint,
  ADD CONSTRAINT users_totp_enabled_has_secret CHECK (totp_enabled_at IS NULL OR totp_secret IS NOT NULL);

ALTER TABLE merchants ADD COLUMN require_totp boolean NOT NULL DEFAULT false;

-- Ten one-time codes per user, SHA-256 of the normalised code; used_at is set by the one request
-- that spends it.
CREATE TABLE totp_recovery_codes (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash  text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  used_at    timestamptz(3),
  CONSTRAINT totp_recovery_codes_user_code_key UNIQUE (user_id, code_hash)
);

-- A browser where a user signed in: the device cookie carries the token, the table its SHA-256,
-- bound to the user. Its failed sign-ins are counted apart from its address's.
CREATE TABLE trusted_devices (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash   text NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  expires_at   timestamptz(3) NOT NULL,
  CONSTRAINT trusted_devices_token_hash_key UNIQUE (token_hash)
);
CREATE INDEX trusted_devices_user_idx ON trusted_devices (user_id);
CREATE INDEX trusted_devices_expires_idx ON trusted_devices (expires_at);

-- The attempt's device (a browser with this user's device cookie), or null: attempts from a
-- device count only against that device, the others against their email and address.
ALTER TABLE login_attempts ADD COLUMN device_id uuid;
CREATE INDEX login_attempts_email_ip_idx ON login_attempts (email, ip, at);
CREATE INDEX login_attempts_device_idx ON login_attempts (device_id, at) WHERE device_id IS NOT NULL;

-- Two-factor turned on or off, or required by the merchant: what a session may decide changes,
-- so every API process drops the sessions it cached (notify_credential_change, migration money_integrity).
DROP TRIGGER users_credential_change ON users;
CREATE TRIGGER users_credential_change AFTER UPDATE OF role, password_hash, totp_enabled_at OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
DROP TRIGGER merchants_credential_change ON merchants;
CREATE TRIGGER merchants_credential_change AFTER UPDATE OF active, require_totp ON merchants
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
