-- A payment's refunds (docs/architecture.md "Where each rule lives", docs/decisions.md
-- "Exceptions"): refunded only while confirmed, and their sum kept on the payment's
-- refunded_amount, where the CHECK payments_refunds_within_received bounds it by what was received
-- (the payment's row lock serialises them). `recordRefund` (src/domain/refunds/refunds.ts) checks
-- the same under that lock first and gives the clear error. Refunds are records: never updated or
-- deleted (docs/security.md "Decisions on exceptions").
-- The triggers are schema: refunds_apply (AFTER INSERT ON refunds) and refunds_append_only (BEFORE
-- UPDATE OR DELETE ON refunds), migration 20261125100000_exceptions.

CREATE OR REPLACE FUNCTION refunds_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p_status text;
BEGIN
  IF NEW.payment_id IS NULL THEN RETURN NEW; END IF;
  SELECT status INTO p_status FROM payments WHERE id = NEW.payment_id FOR UPDATE;
  IF p_status IS DISTINCT FROM 'confirmed' THEN
    RAISE EXCEPTION 'refund of payment %: the payment is %', NEW.payment_id, p_status USING ERRCODE = 'GWM01';
  END IF;
  UPDATE payments SET refunded_amount = refunded_amount + NEW.amount, updated_at = now() WHERE id = NEW.payment_id;
  RETURN NEW;
END;
$$;

CREATE OR REPLACE FUNCTION refunds_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'refunds are records: % is not allowed', TG_OP USING ERRCODE = 'GWM01';
END;
$$;
