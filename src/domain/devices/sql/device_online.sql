-- Device online (docs/live-setup.md "5. When a phone goes offline"; card choice): a device is
-- online while it is not revoked and was last seen (`last_heartbeat_at`, stamped by every
-- authenticated request of the device) at most `online_ms` ago (DEVICE_OFFLINE_SECONDS,
-- src/domain/devices/health.ts `deviceOnlineMs`). Defined here only: card choice (create_payment),
-- GraphQL `Device.online` and the health sweep call it.

-- The oldest "last seen" that still counts as online. Apart so the sweep can compare an indexed
-- column with it.
CREATE OR REPLACE FUNCTION device_online_since(online_ms integer) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT now() - online_ms * interval '1 millisecond'
$$;

-- Never null: a device never seen, or revoked, is offline.
CREATE OR REPLACE FUNCTION device_online(last_seen timestamptz, revoked_at timestamptz, online_ms integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT revoked_at IS NULL AND last_seen IS NOT NULL AND last_seen >= device_online_since(online_ms)
$$;
