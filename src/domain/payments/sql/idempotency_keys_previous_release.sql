-- Rolling upgrade of the idempotency keys (trigger idempotency_keys_previous_release, BEFORE INSERT
-- ON idempotency_keys WHEN scope IS NULL): a key the release before issue 34 inserts (project_id
-- only, for a payment create) gets its scope and operation, so both releases read one table while
-- they run side by side (docs/operations.md "Upgrades and migrations"). The scopes themselves are
-- src/domain/payments/idempotency.ts's (docs/decisions.md, idempotency keys for every decision).
-- The trigger is schema: migration 20261129030000_idempotent_decisions; a later release drops
-- project_id, the trigger and this function (a versioned migration, and this file leaves DEFINITIONS).
CREATE OR REPLACE FUNCTION idempotency_keys_previous_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.scope := 'project:' || NEW.project_id;
  NEW.operation := coalesce(NEW.operation, 'POST /v1/payments');
  RETURN NEW;
END;
$$;
