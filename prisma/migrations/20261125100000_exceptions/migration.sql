-- Issue 19: every deposit and every payment gets a decision (CONTRACT "Exceptions").
-- What a payment received and how it was confirmed, refunds as records, the review reason of a
-- bank message, and the attention events; the database guards each new move.

-- Payments: what came in, late confirmations, what went back.
ALTER TABLE payments
  ADD COLUMN amount_received bigint,
  ADD COLUMN confirmed_late boolean NOT NULL DEFAULT false,
  ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0;

UPDATE payments p SET amount_received = coalesce((SELECT m.amount FROM bank_messages m WHERE m.id = p.confirmed_by_message_id), p.amount_final)
 WHERE p.status = 'confirmed';

-- A confirmation after the late window is the merchant's, marked late; the engine's never are.
ALTER TABLE payments DROP CONSTRAINT payments_confirmed_within_late_window;
ALTER TABLE payments ADD CONSTRAINT payments_confirmed_within_late_window
  CHECK (confirmed_at IS NULL OR confirmed_at <= late_until OR confirmed_late);

ALTER TABLE payments
  ADD CONSTRAINT payments_received_iff_confirmed CHECK ((status = 'confirmed') = (amount_received IS NOT NULL)),
  ADD CONSTRAINT payments_received_positive CHECK (amount_received IS NULL OR amount_received > 0),
  ADD CONSTRAINT payments_refunds_within_received CHECK (refunded_amount >= 0 AND refunded_amount <= coalesce(amount_received, 0)),
  ADD CONSTRAINT payments_late_is_manual CHECK (NOT confirmed_late OR (status = 'confirmed' AND confirmation_source = 'manual' AND confirmed_at > late_until));

-- Bank messages: the review's machine code, and `refunded` for a deposit paid back.
ALTER TABLE bank_messages ADD COLUMN review_reason text;
-- The payments a held deposit flagged for review: a decision on the deposit clears their flags.
ALTER TABLE bank_messages ADD COLUMN flagged_payment_ids uuid[] NOT NULL DEFAULT '{}';
CREATE INDEX bank_messages_flagged_idx ON bank_messages USING gin (flagged_payment_ids) WHERE status = 'needs_review';
UPDATE bank_messages SET review_reason = coalesce(evidence_problem,
    CASE WHEN status_reason LIKE '%without its code%' THEN 'amount_without_code' ELSE 'ambiguous_deposit' END)
 WHERE status = 'needs_review';
ALTER TABLE bank_messages DROP CONSTRAINT IF EXISTS bank_messages_status_check;
ALTER TABLE bank_messages
  ADD CONSTRAINT bank_messages_status_check
    CHECK (status IN ('received', 'matched', 'needs_review', 'unmatched', 'ignored', 'unparsed', 'duplicate', 'dismissed', 'refunded')),
  ADD CONSTRAINT bank_messages_review_reason_known CHECK (
    (status = 'needs_review') = (review_reason IS NOT NULL)
    AND (review_reason IS NULL OR review_reason IN ('amount_without_code', 'ambiguous_deposit', 'unknown_sender', 'balance_mismatch', 'bank_mismatch', 'unrecognized_format')));

-- The payment guard, with the exceptions' moves: a canceled payment is confirmed only by the
-- merchant attaching its deposit; a confirmation after the late window only by the merchant, marked
-- late; a released fee is charged again (released -> debited) only by such a manual confirmation.
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
  IF OLD.status = 'canceled' AND NEW.status = 'confirmed'
     AND (NEW.confirmation_source IS DISTINCT FROM 'manual' OR NEW.confirmed_by_message_id IS NULL) THEN
    RAISE EXCEPTION 'payment %: a canceled payment is confirmed only by attaching its deposit', OLD.id USING ERRCODE = 'GWM01';
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

-- A deposit that confirmed a payment is never refunded as a loose deposit.
CREATE FUNCTION bank_messages_refund_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM payments WHERE confirmed_by_message_id = NEW.id) THEN
    RAISE EXCEPTION 'bank message %: it confirmed a payment; refund the payment', NEW.id USING ERRCODE = 'GWM01';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER bank_messages_refund_guard BEFORE UPDATE OF status ON bank_messages
  FOR EACH ROW WHEN (NEW.status = 'refunded' AND OLD.status <> 'refunded') EXECUTE FUNCTION bank_messages_refund_guard();

-- Refunds are records of money the merchant paid back from their bank; the gateway moves none.
CREATE TABLE refunds (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id       uuid NOT NULL REFERENCES merchants(id),
  project_id        uuid REFERENCES projects(id),
  payment_id        uuid REFERENCES payments(id),
  bank_message_id   uuid REFERENCES bank_messages(id),
  amount            bigint NOT NULL CHECK (amount > 0),
  -- Only the last four digits are kept.
  destination_card  text CHECK (destination_card ~ '^\*{12}[0-9]{4}$'),
  destination_sheba text CHECK (destination_sheba ~ '^IR[0-9]{24}$'),
  reference         text,
  note              text,
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT refunds_have_subject CHECK (payment_id IS NOT NULL OR bank_message_id IS NOT NULL),
  CONSTRAINT refunds_have_destination CHECK (destination_card IS NOT NULL OR destination_sheba IS NOT NULL)
);
CREATE INDEX refunds_payment_idx ON refunds (payment_id, created_at);
CREATE INDEX refunds_merchant_idx ON refunds (merchant_id, created_at);
-- A deposit that belongs to no payment is refunded once.
CREATE UNIQUE INDEX refunds_one_per_loose_deposit ON refunds (bank_message_id) WHERE payment_id IS NULL;

-- A payment's refunds: only a confirmed one, and their sum kept on the payment, where the CHECK
-- payments_refunds_within_received bounds it by what was received (the row lock serialises them).
CREATE FUNCTION refunds_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER refunds_apply AFTER INSERT ON refunds FOR EACH ROW EXECUTE FUNCTION refunds_apply();

CREATE FUNCTION refunds_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'refunds are records: % is not allowed', TG_OP USING ERRCODE = 'GWM01';
END;
$$;
CREATE TRIGGER refunds_append_only BEFORE UPDATE OR DELETE ON refunds FOR EACH ROW EXECUTE FUNCTION refunds_append_only();

-- Events: refunds and the attention events; a bank message's event names the message, not a payment.
ALTER TABLE events ALTER COLUMN payment_id DROP NOT NULL;
ALTER TABLE events ADD COLUMN bank_message_id uuid REFERENCES bank_messages(id);
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_type_check;
ALTER TABLE events
  ADD CONSTRAINT events_type_check CHECK (type IN ('payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled',
    'payment.refunded', 'payment.review_required', 'bank_message.needs_review')),
  ADD CONSTRAINT events_one_subject CHECK (
    CASE WHEN type = 'bank_message.needs_review' THEN payment_id IS NULL AND bank_message_id IS NOT NULL
         ELSE payment_id IS NOT NULL AND bank_message_id IS NULL END);
DROP INDEX events_one_per_payment_and_type;
-- A payment reaches each final state at most once (confirmed may follow expired, never twice).
CREATE UNIQUE INDEX events_one_per_payment_and_type ON events (payment_id, type)
  WHERE type IN ('payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled');

-- payment.refunded joins the default set; endpoints that never chose get it too.
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_events_known;
UPDATE webhook_endpoints SET events = events || ARRAY['payment.refunded']
 WHERE events @> ARRAY['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled']
   AND events <@ ARRAY['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled'];
ALTER TABLE webhook_endpoints
  ALTER COLUMN events SET DEFAULT ARRAY['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled', 'payment.refunded'],
  ADD CONSTRAINT webhook_endpoints_events_known CHECK (
    cardinality(events) >= 1
    AND events <@ ARRAY['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled', 'payment.refunded',
                        'payment.review_required', 'bank_message.needs_review', 'device.offline', 'device.online']
  );

-- "Reported paying, nothing came": the review queue's filter.
CREATE INDEX payments_review_idx ON payments (project_id, created_at DESC) WHERE review_required;
CREATE INDEX bank_messages_open_deposits_idx ON bank_messages (merchant_id, device_id, amount)
  WHERE status IN ('unmatched', 'needs_review') AND direction = 'deposit';
