-- Every decision idempotent (issue 34, docs/decisions.md "Idempotency keys for every decision"):
-- a key lives in a scope (the caller's key space: a project, a merchant key, a dashboard user, a
-- checkout's payment, a payment link's client) and remembers the operation it was sent for (the
-- door, the verb and its target) beside the body's hash, so that the same key on another route or
-- another payment is refused rather than answered with the wrong response.
ALTER TABLE idempotency_keys ADD COLUMN scope text, ADD COLUMN operation text;
UPDATE idempotency_keys SET scope = 'project:' || project_id, operation = 'POST /v1/payments';

-- Rolling upgrade (docs/operations.md): the previous release inserts payment creates' keys with
-- project_id only and reads them by project_id; its rows get their scope and operation here. A
-- release after this one drops project_id and this trigger.
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey, ALTER COLUMN project_id DROP NOT NULL;
CREATE FUNCTION idempotency_keys_previous_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.scope := 'project:' || NEW.project_id;
  NEW.operation := coalesce(NEW.operation, 'POST /v1/payments');
  RETURN NEW;
END;
$$;
CREATE TRIGGER idempotency_keys_previous_release BEFORE INSERT ON idempotency_keys
  FOR EACH ROW WHEN (NEW.scope IS NULL) EXECUTE FUNCTION idempotency_keys_previous_release();

ALTER TABLE idempotency_keys
  ALTER COLUMN scope SET NOT NULL,
  ALTER COLUMN operation SET NOT NULL,
  ADD CONSTRAINT idempotency_keys_scope_shape CHECK (scope ~ '^(project|merchant|user|payment|link):'),
  ADD PRIMARY KEY (scope, key);
