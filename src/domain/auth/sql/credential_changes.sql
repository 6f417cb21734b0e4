-- A credential that changes state wakes every API process (docs/decisions.md "Subscriptions and
-- revoked credentials", docs/security.md "Dashboard users and sessions"): a NOTIFY on
-- `credential_changes`, on which src/events/payment-notifier.ts listens; each process then clears its
-- credential cache (src/domain/auth/auth-cache.ts) and ends the subscriptions that lost their
-- credential. The statement triggers that call it (revoked keys, devices and sessions, projects and
-- merchants (de)activated, a user's role, password or second factor changed) are schema: migrations
-- 20261124010000_money_integrity, 20261125140000_users_sessions and 20261129020000_sign_in_two_factor.
CREATE OR REPLACE FUNCTION notify_credential_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('credential_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
