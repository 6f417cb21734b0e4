-- The audit log is append-only in the database: a record of who did what is worth nothing if it can
-- be edited; a correction is a new event (docs/architecture.md "Audit log: where to call
-- recordAudit"; `recordAudit` in src/domain/audit/audit.ts only inserts). The triggers
-- audit_events_no_change (BEFORE UPDATE OR DELETE) and audit_events_no_truncate (BEFORE TRUNCATE)
-- are schema: migration 20261125120000_audit_log.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
