-- The payment guard (trigger payments_guard, BEFORE UPDATE ON payments): the database's own
-- statement of how a payment may move, the backstop under the transition table in
-- src/domain/payments/state-machine.ts, which checks the same moves first and gives the clear error
-- (docs/architecture.md "Where each rule lives"; test/db/transition-guard.test.ts holds the two
-- equal). Only a bug reaches it: it raises SQLSTATE GWM01, answered `internal_error` and logged
-- (docs/decisions.md "Money guards in the database").
--
-- Rules owned here:
--   status moves        pending → confirmed, expired, canceled or rejected; expired → confirmed;
--                       canceled → confirmed only by the merchant attaching its deposit (manual,
--                       with a message) (docs/decisions.md "Exceptions")
--   fee-state moves     reserved → debited or released; released → debited only on a manual
--                       confirmation (charged again)
--   the late window     no confirmation after late_until unless the merchant's, marked
--                       confirmed_late (CHECKs payments_confirmed_within_late_window and
--                       payments_late_is_manual say it again); no fee released inside it
--   what was received   amount_received and confirmed_late are set once, when confirmed
--   real ≠ simulated    real messages confirm live payments only, simulations sandbox ones only
--                       (`worldMismatch` in src/domain/sandbox/worlds.ts, asked by matching and attach)
--   decided messages    a message refunded, dismissed, a copy or not a deposit confirms nothing
--                       (docs/security.md "Decisions on exceptions")
-- The trigger itself is schema: migration 20261124010000_money_integrity.
CREATE OR REPLACE FUNCTION payments_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  message_simulated boolean;
  message_status text;
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
       (OLD.status = 'pending' AND NEW.status IN ('confirmed', 'expired', 'canceled', 'rejected'))
    OR (OLD.status = 'expired' AND NEW.status = 'confirmed')
    OR (OLD.status = 'canceled' AND NEW.status = 'confirmed')) THEN
    RAISE EXCEPTION 'payment %: status % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'GWM01';
  END IF;
  -- Its evidence: the deposit attached, or a balance gap the merchant resolved to it (issue 37; the
  -- gap is marked resolved naming the payment before the payment is confirmed).
  IF OLD.status = 'canceled' AND NEW.status = 'confirmed'
     AND (NEW.confirmation_source IS DISTINCT FROM 'manual'
       OR (NEW.confirmed_by_message_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM balance_gaps g WHERE g.resolved_payment_id = NEW.id AND g.status = 'resolved'))) THEN
    RAISE EXCEPTION 'payment %: a canceled payment is confirmed only by attaching its deposit or resolving a balance gap to it', OLD.id USING ERRCODE = 'GWM01';
  END IF;
  IF NEW.fee_state IS DISTINCT FROM OLD.fee_state
     AND NOT (OLD.fee_state = 'reserved' AND NEW.fee_state IN ('debited', 'released'))
     AND NOT (OLD.fee_state = 'released' AND NEW.fee_state = 'debited' AND NEW.status = 'confirmed'
              AND OLD.status <> 'confirmed' AND NEW.confirmation_source = 'manual') THEN
    RAISE EXCEPTION 'payment %: fee % cannot become %', OLD.id, OLD.fee_state, NEW.fee_state USING ERRCODE = 'GWM01';
  END IF;
  IF NEW.status = 'confirmed' AND OLD.status <> 'confirmed' THEN
    -- The transaction began (and so decided) no later than the late window's end, unless the
    -- merchant confirms it late, by hand.
    IF transaction_timestamp() > NEW.late_until AND NOT NEW.confirmed_late THEN
      RAISE EXCEPTION 'payment %: confirmed after its late window', OLD.id USING ERRCODE = 'GWM01';
    END IF;
    IF NOT NEW.sandbox AND OLD.fee_state NOT IN ('reserved', 'released') THEN
      RAISE EXCEPTION 'payment %: confirmed without a fee to charge (%)', OLD.id, OLD.fee_state USING ERRCODE = 'GWM01';
    END IF;
    IF NOT NEW.sandbox AND OLD.fee_state = 'released' AND NEW.confirmation_source IS DISTINCT FROM 'manual' THEN
      RAISE EXCEPTION 'payment %: confirmed without a reserved fee (%)', OLD.id, OLD.fee_state USING ERRCODE = 'GWM01';
    END IF;
  ELSIF NEW.confirmed_late IS DISTINCT FROM OLD.confirmed_late OR NEW.amount_received IS DISTINCT FROM OLD.amount_received THEN
    RAISE EXCEPTION 'payment %: what was received is set once, when it is confirmed', OLD.id USING ERRCODE = 'GWM01';
  END IF;
  IF NEW.confirmed_by_message_id IS DISTINCT FROM OLD.confirmed_by_message_id AND NEW.confirmed_by_message_id IS NOT NULL THEN
    -- Real SMS confirm live payments only; simulations confirm sandbox payments only; a deposit
    -- already decided otherwise (refunded, dismissed, a copy, not a deposit) confirms nothing.
    SELECT simulated, status INTO message_simulated, message_status FROM bank_messages WHERE id = NEW.confirmed_by_message_id;
    IF message_simulated IS DISTINCT FROM NEW.sandbox THEN
      RAISE EXCEPTION 'payment %: a % payment cannot be confirmed by a % message', OLD.id,
        CASE WHEN NEW.sandbox THEN 'sandbox' ELSE 'live' END,
        CASE WHEN message_simulated THEN 'simulated' ELSE 'real' END USING ERRCODE = 'GWM01';
    END IF;
    IF message_status NOT IN ('received', 'unmatched', 'needs_review', 'matched') THEN
      RAISE EXCEPTION 'payment %: a % message confirms nothing', OLD.id, message_status USING ERRCODE = 'GWM01';
    END IF;
  END IF;
  IF NEW.fee_state = 'released' AND OLD.fee_state <> 'released' AND NEW.status = 'expired'
     AND clock_timestamp() <= NEW.late_until THEN
    RAISE EXCEPTION 'payment %: fee released inside the late window', OLD.id USING ERRCODE = 'GWM01';
  END IF;
  RETURN NEW;
END;
$$;
