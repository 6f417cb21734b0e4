-- A per-device secret URL (/v1/device/hooks/{secret}) for forwarder apps that cannot send an
-- Authorization header. Stored as SHA-256 like tokens; NULL = no hook (never issued, or revoked).
-- Reissuing overwrites the hash, so the old URL stops working in the same statement.
ALTER TABLE devices
  ADD COLUMN hook_secret_hash   text UNIQUE,
  ADD COLUMN hook_secret_prefix text,
  ADD COLUMN hook_issued_at     timestamptz(3),
  ADD CONSTRAINT devices_hook_secret_complete
    CHECK ((hook_secret_hash IS NULL) = (hook_secret_prefix IS NULL) AND (hook_secret_hash IS NULL) = (hook_issued_at IS NULL));
