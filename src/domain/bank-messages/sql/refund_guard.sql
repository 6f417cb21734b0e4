-- A deposit that confirmed a payment is never refunded as a loose deposit: its payment is refunded
-- instead (docs/security.md "Decisions on exceptions", one deposit used twice). `refundBankMessage`
-- (src/domain/refunds/refunds.ts) accepts only unmatched, needs_review or dismissed deposits first;
-- payments_guard (src/domain/payments/sql/payments_guard.sql) refuses the other way round, a
-- refunded message confirming a payment. The trigger bank_messages_refund_guard (BEFORE UPDATE OF
-- status ON bank_messages, when it becomes refunded) is schema: migration 20261125100000_exceptions.
CREATE OR REPLACE FUNCTION bank_messages_refund_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM payments WHERE confirmed_by_message_id = NEW.id) THEN
    RAISE EXCEPTION 'bank message %: it confirmed a payment; refund the payment', NEW.id USING ERRCODE = 'GWM01';
  END IF;
  RETURN NEW;
END;
$$;
