-- Credit stripes (issue 22): a live create reserved its fee with `UPDATE merchants … credit_reserved
-- + fee`, and held that row's lock to its commit, so one merchant's creates ran one at a time (a
-- live shop's create at 0.51–0.61 of the minimal floor, beside 0.78–0.88 for a sandbox one). The
-- reservation now lands on one of the merchant's stripes: each stripe holds a lease of the
-- merchant's balance and the fees reserved on it. A create takes one stripe's lock
-- (credit_reserve, src/domain/credit/sql/credit_stripes.sql); only a create whose stripe is short
-- takes the merchant's row and every stripe, to lease again what the balance still has free.
--
-- What the database keeps, whatever the code does:
--   reserved ≥ 0 and reserved ≤ lease on every stripe (a stripe never reserves what it was not lent);
--   a reserved fee names its stripe (payments.fee_stripe);
--   a stripe's reserved credit follows its payments' fee states (the trigger below): a debit takes
--   the fee from the reservation and the lease (the balance loses it in the same transaction, by
--   the ledger), a release gives it back to the lease, and a released fee charged again (a late
--   confirmation) takes every free lease back, since the balance fell by what no lease had lent.
-- So the free leases never exceed the available credit (the money simulation checks it:
-- test/support/sim/invariants.ts).
--
-- Lock order wherever a merchant's credit moves: the merchant's row (FOR NO KEY UPDATE, which a
-- payment's foreign key check passes), then its stripes by number. The code takes the merchant's
-- row before it changes a fee state (the ledger's UPDATE, or src/domain/credit/store/stripes.ts for
-- a release), so this trigger's stripe lock comes after it.
--
-- merchants.credit_reserved is no longer read or written: its sum moves to stripe 0 here, and the
-- column stays (zeroed, unchecked) only so that the previous release, running beside this one in a
-- rolling upgrade, can still run its statements; the next release drops it.
CREATE TABLE credit_stripes (
  merchant_id uuid     NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  stripe      smallint NOT NULL CHECK (stripe >= 0),
  lease       bigint   NOT NULL DEFAULT 0,
  reserved    bigint   NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  PRIMARY KEY (merchant_id, stripe),
  CONSTRAINT credit_stripes_reserved_within_lease CHECK (reserved <= lease)
);

ALTER TABLE payments ADD COLUMN fee_stripe smallint CHECK (fee_stripe >= 0);
UPDATE payments SET fee_stripe = 0 WHERE fee_state = 'reserved';
ALTER TABLE payments ADD CONSTRAINT payments_reserved_fee_has_stripe CHECK (fee_state <> 'reserved' OR fee_stripe IS NOT NULL);

-- What was reserved moves to stripe 0, leased exactly; the next create that needs more leases the rest.
INSERT INTO credit_stripes (merchant_id, stripe, lease, reserved)
SELECT id, 0, credit_reserved, credit_reserved FROM merchants WHERE credit_reserved > 0;
ALTER TABLE merchants DROP CONSTRAINT merchants_credit_reserved_check;
UPDATE merchants SET credit_reserved = 0 WHERE credit_reserved <> 0;

CREATE FUNCTION credit_stripes_follow_fee() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.fee_amount = 0 THEN
    RETURN NULL;
  END IF;
  IF OLD.fee_state = 'reserved' AND NEW.fee_state IN ('debited', 'released') THEN
    UPDATE credit_stripes s
       SET reserved = s.reserved - OLD.fee_amount,
           lease = s.lease - CASE WHEN NEW.fee_state = 'debited' THEN OLD.fee_amount ELSE 0 END
     WHERE s.merchant_id = OLD.merchant_id AND s.stripe = OLD.fee_stripe;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'payment %: its fee''s credit stripe % is missing', OLD.id, OLD.fee_stripe USING ERRCODE = 'GWM01';
    END IF;
  ELSIF OLD.fee_state = 'released' AND NEW.fee_state = 'debited' THEN
    UPDATE credit_stripes s SET lease = s.reserved
      FROM (SELECT f.stripe FROM credit_stripes f WHERE f.merchant_id = NEW.merchant_id AND f.lease <> f.reserved
             ORDER BY f.stripe FOR NO KEY UPDATE) free
     WHERE s.merchant_id = NEW.merchant_id AND s.stripe = free.stripe;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER credit_stripes_follow_fee AFTER UPDATE OF fee_state ON payments
  FOR EACH ROW WHEN (OLD.fee_state IS DISTINCT FROM NEW.fee_state AND NOT OLD.sandbox)
  EXECUTE FUNCTION credit_stripes_follow_fee();
