-- Money rules (CONTRACT "Bank messages and matching"), stated in the database so that no code
-- path, present or future, can break them: the TypeScript checks the same rules first and gives
-- the clear error; these are the backstop that turns a bug into a refused write.

-- A fee goes back to the merchant only for a payment that ended unconfirmed.
ALTER TABLE payments ADD CONSTRAINT payments_released_only_final_unconfirmed
  CHECK (sandbox OR fee_state <> 'released' OR status IN ('expired', 'canceled', 'rejected'));
-- Nothing is confirmed after its late window.
ALTER TABLE payments ADD CONSTRAINT payments_confirmed_within_late_window
  CHECK (confirmed_at IS NULL OR confirmed_at <= late_until);
-- An automatic confirmation names the deposit that made it.
ALTER TABLE payments ADD CONSTRAINT payments_auto_sms_has_message
  CHECK (confirmation_source IS DISTINCT FROM 'auto_sms' OR confirmed_by_message_id IS NOT NULL);

-- Transitions of status and fee_state, the clock rules, and who may confirm what.
CREATE FUNCTION payments_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  message_simulated boolean;
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
       (OLD.status = 'pending' AND NEW.status IN ('confirmed', 'expired', 'canceled', 'rejected'))
    OR (OLD.status = 'expired' AND NEW.status = 'confirmed')) THEN
    RAISE EXCEPTION 'payment %: status % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'GWM01';
  END IF;
  IF NEW.fee_state IS DISTINCT FROM OLD.fee_state
     AND NOT (OLD.fee_state = 'reserved' AND NEW.fee_state IN ('debited', 'released')) THEN
    RAISE EXCEPTION 'payment %: fee % cannot become %', OLD.id, OLD.fee_state, NEW.fee_state USING ERRCODE = 'GWM01';
  END IF;
  IF NEW.status = 'confirmed' AND OLD.status <> 'confirmed' THEN
    -- The transaction began (and so decided) no later than the late window's end.
    IF transaction_timestamp() > NEW.late_until THEN
      RAISE EXCEPTION 'payment %: confirmed after its late window', OLD.id USING ERRCODE = 'GWM01';
    END IF;
    IF NOT NEW.sandbox AND OLD.fee_state <> 'reserved' THEN
      RAISE EXCEPTION 'payment %: confirmed without a reserved fee (%)', OLD.id, OLD.fee_state USING ERRCODE = 'GWM01';
    END IF;
  END IF;
  IF NEW.confirmed_by_message_id IS DISTINCT FROM OLD.confirmed_by_message_id AND NEW.confirmed_by_message_id IS NOT NULL THEN
    -- Real SMS confirm live payments only; simulations confirm sandbox payments only.
    SELECT simulated INTO message_simulated FROM bank_messages WHERE id = NEW.confirmed_by_message_id;
    IF message_simulated IS DISTINCT FROM NEW.sandbox THEN
      RAISE EXCEPTION 'payment %: a % payment cannot be confirmed by a % message', OLD.id,
        CASE WHEN NEW.sandbox THEN 'sandbox' ELSE 'live' END,
        CASE WHEN message_simulated THEN 'simulated' ELSE 'real' END USING ERRCODE = 'GWM01';
    END IF;
  END IF;
  IF NEW.fee_state = 'released' AND OLD.fee_state <> 'released' AND NEW.status = 'expired'
     AND clock_timestamp() <= NEW.late_until THEN
    RAISE EXCEPTION 'payment %: fee released inside the late window', OLD.id USING ERRCODE = 'GWM01';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER payments_guard BEFORE UPDATE ON payments FOR EACH ROW EXECUTE FUNCTION payments_guard();

-- A confirmed live payment has exactly one fee debit in the ledger, of its fee; a fee debit belongs
-- to a confirmed live payment. Checked at commit, whatever order the transaction wrote in.
CREATE FUNCTION payments_fee_debited_once() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p payments%ROWTYPE;
  debits integer;
  debited bigint;
BEGIN
  SELECT * INTO p FROM payments WHERE id = NEW.id;
  IF p.status <> 'confirmed' OR p.sandbox THEN RETURN NULL; END IF;
  SELECT count(*), coalesce(-sum(amount), 0) INTO debits, debited
    FROM credit_ledger_entries WHERE payment_id = p.id AND kind = 'fee';
  IF debits <> (CASE WHEN p.fee_amount > 0 THEN 1 ELSE 0 END) OR debited <> p.fee_amount THEN
    RAISE EXCEPTION 'payment %: confirmed with % fee debits of % (fee %)', p.id, debits, debited, p.fee_amount
      USING ERRCODE = 'GWM01';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER payments_fee_debited_once AFTER UPDATE ON payments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.status = 'confirmed' AND NOT NEW.sandbox)
  EXECUTE FUNCTION payments_fee_debited_once();

CREATE FUNCTION credit_ledger_fee_matches_payment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p payments%ROWTYPE;
BEGIN
  SELECT * INTO p FROM payments WHERE id = NEW.payment_id;
  IF p.status IS DISTINCT FROM 'confirmed' OR p.sandbox OR NEW.amount <> -p.fee_amount OR NEW.merchant_id <> p.merchant_id THEN
    RAISE EXCEPTION 'ledger fee % does not match a confirmed live payment %', NEW.id, NEW.payment_id
      USING ERRCODE = 'GWM01';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER credit_ledger_fee_matches_payment AFTER INSERT ON credit_ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.kind = 'fee')
  EXECUTE FUNCTION credit_ledger_fee_matches_payment();

-- A live hold sits in the scope of its payment's card as the card is now: a card's deposits
-- confirm that card's payments wherever the card moved (holds move with it, in the same
-- transaction, or the move is refused).
CREATE FUNCTION card_match_scope(card_id uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN device_id IS NULL THEN 'card:' || id ELSE 'device:' || device_id END FROM cards WHERE id = card_id
$$;

CREATE FUNCTION amount_holds_in_card_scope() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  expected text;
BEGIN
  IF NEW.released_at IS NOT NULL THEN RETURN NULL; END IF;
  SELECT card_match_scope(p.card_id) INTO expected FROM payments p WHERE p.id = NEW.payment_id;
  IF NEW.scope IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'hold of payment % is in scope %, its card is in %', NEW.payment_id, NEW.scope, expected
      USING ERRCODE = 'GWM01';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER amount_holds_in_card_scope AFTER INSERT OR UPDATE ON amount_holds
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION amount_holds_in_card_scope();

CREATE FUNCTION cards_holds_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stray uuid;
BEGIN
  SELECT h.payment_id INTO stray FROM amount_holds h JOIN payments p ON p.id = h.payment_id
   WHERE p.card_id = NEW.id AND h.released_at IS NULL AND h.scope <> card_match_scope(NEW.id) LIMIT 1;
  IF stray IS NOT NULL THEN
    RAISE EXCEPTION 'card % moved but the hold of payment % stayed behind', NEW.id, stray USING ERRCODE = 'GWM01';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER cards_holds_follow AFTER UPDATE OF device_id ON cards
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.device_id IS DISTINCT FROM NEW.device_id)
  EXECUTE FUNCTION cards_holds_follow();

-- Credentials that change state wake every API process, which ends the subscriptions they opened.
CREATE FUNCTION notify_credential_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('credential_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
CREATE TRIGGER api_keys_credential_change AFTER UPDATE OF revoked_at ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
CREATE TRIGGER merchant_keys_credential_change AFTER UPDATE OF revoked_at ON merchant_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
CREATE TRIGGER devices_credential_change AFTER UPDATE OF revoked_at ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
CREATE TRIGGER projects_credential_change AFTER UPDATE OF active, suspended_at ON projects
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
CREATE TRIGGER merchants_credential_change AFTER UPDATE OF active ON merchants
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
