-- The audit log (CONTRACT "Exceptions", Audit log): who changed what, written by recordAudit
-- (src/domain/audit/audit.ts) in the transaction of the change it records.
CREATE TABLE audit_events (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The clock at the insert, not the transaction's start: the events of one transaction keep their order.
  at           timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
  actor_kind   text NOT NULL CHECK (actor_kind IN ('merchant_key', 'project_key', 'user', 'operator', 'system')),
  -- The credential or user that acted (a key id, a user id); null for the operator and the engine.
  actor_id     text,
  -- What people read: a key prefix, "operator CLI", the engine part that decided.
  actor_label  text NOT NULL,
  merchant_id  uuid NOT NULL REFERENCES merchants(id),
  project_id   uuid REFERENCES projects(id),
  action       text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$'),
  subject_type text NOT NULL,
  subject_id   uuid NOT NULL,
  note         text,
  -- {field: {from, to}}; never secrets, hashes, tokens or whole card numbers.
  changes      jsonb CHECK (changes IS NULL OR jsonb_typeof(changes) = 'object')
);

CREATE INDEX audit_events_merchant_idx ON audit_events (merchant_id, at DESC, id DESC);
CREATE INDEX audit_events_project_idx ON audit_events (project_id, at DESC, id DESC) WHERE project_id IS NOT NULL;
CREATE INDEX audit_events_subject_idx ON audit_events (subject_id, at DESC, id DESC);

-- Append-only, in the database: a record of who did what is worth nothing if it can be edited.
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER audit_events_no_change BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
