-- Rolling upgrade of the audit log's door (trigger audit_events_via_previous_release, BEFORE INSERT
-- ON audit_events WHEN via IS NULL): an event the release before `via` inserts gets the door its
-- actor kind implies, the same mapping as `VIA_OF_KIND` in src/domain/audit/audit.ts (which the
-- current release writes itself) and as the migration's backfill, so both releases write one log
-- while they run side by side (docs/operations.md "Upgrades and migrations").
-- The trigger is schema: migration 20261129040000_audit_via; a later release drops the trigger and
-- this function (a versioned migration, and this file leaves DEFINITIONS).
CREATE OR REPLACE FUNCTION audit_events_via_previous_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.via := CASE NEW.actor_kind
    WHEN 'user' THEN 'dashboard'
    WHEN 'merchant_key' THEN 'api'
    WHEN 'project_key' THEN 'api'
    WHEN 'operator' THEN 'cli'
    ELSE 'system'
  END;
  RETURN NEW;
END;
$$;
