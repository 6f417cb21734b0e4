-- Which door a change came through (issue 35, docs/architecture.md "Audit log"): the same user
-- decides from the dashboard today and from a chat bot tomorrow, and the log says which. Written by
-- recordAudit: the operations runner passes the door's, other verbs take their actor's.
ALTER TABLE audit_events ADD COLUMN via text;

-- Rolling upgrade (docs/operations.md): the previous release inserts events without `via`; each
-- gets the door its actor kind implies, as the rows before this migration do below. A release
-- after this one drops this trigger.
CREATE FUNCTION audit_events_via_previous_release() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER audit_events_via_previous_release BEFORE INSERT ON audit_events
  FOR EACH ROW WHEN (NEW.via IS NULL) EXECUTE FUNCTION audit_events_via_previous_release();

-- The rows already written, by the same rule. The log refuses updates (audit_events_no_change);
-- this backfill, in the migration's own transaction, is the one write it lets through.
ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change;
UPDATE audit_events SET via = CASE actor_kind
    WHEN 'user' THEN 'dashboard'
    WHEN 'merchant_key' THEN 'api'
    WHEN 'project_key' THEN 'api'
    WHEN 'operator' THEN 'cli'
    ELSE 'system'
  END;
ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change;

ALTER TABLE audit_events
  ALTER COLUMN via SET NOT NULL,
  ADD CONSTRAINT audit_events_via CHECK (via IN ('api', 'dashboard', 'cli', 'telegram', 'bale', 'system'));
