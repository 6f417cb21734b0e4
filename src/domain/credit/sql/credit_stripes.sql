-- A merchant's credit for live fees, striped (issue 22; migration 20261128100000_credit_stripes made
-- the table). The balance stays on the merchant's row, moved with the ledger under that row's lock
-- (src/domain/credit/ledger.ts); the fees reserved by live payments sit on the merchant's stripes,
-- each with a lease: the part of the balance that stripe may reserve from without asking again.
-- A create reserves on one stripe, picked at random, under that one row's lock, so creates of one
-- merchant run side by side; only a stripe without room for the fee sends its create to the refill,
-- which holds the merchant's row and every stripe and leases out what the balance still has free.
--
-- Rules owned here, and nowhere else:
--   how many stripes         credit_stripe_count()
--   available credit         credit_available(merchant): the balance less every stripe's reserved fees
--   a fee's reservation      credit_reserve(merchant, fee): on one stripe, or refilled, or GW402
--                            when balance − reserved (all stripes, under their locks) is below the fee
--   a stripe follows its     credit_stripes_follow_fee(): the trigger function that moves a stripe
--   payment's fee state      when its payment's fee is debited, released or charged again
-- The table, its CHECKs (0 ≤ reserved ≤ lease, payments_reserved_fee_has_stripe) and the trigger
-- itself (AFTER UPDATE OF fee_state ON payments) are schema: migration 20261128100000_credit_stripes.
-- Lock order, everywhere a merchant's credit moves: the merchant's row, then its stripes by number.
-- A create's fast path takes one stripe and nothing after it (its payment's foreign key takes only
-- FOR KEY SHARE on the merchant, which the row lock taken here, FOR NO KEY UPDATE, lets through).

CREATE OR REPLACE FUNCTION credit_stripe_count() RETURNS smallint LANGUAGE sql IMMUTABLE AS $$ SELECT 8::smallint $$;

-- Read without locks it is an early answer (the create's 402 before it looks at cards); read by the
-- refill, under the merchant's row and every stripe, it is exact. (PL/pgSQL, planned at first call:
-- a definition is also created over a schema from before its table, as test/db/migrate's
-- older-release databases are.)
CREATE OR REPLACE FUNCTION credit_available(merchant uuid) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT m.credit_balance FROM merchants m WHERE m.id = merchant)
       - (SELECT coalesce(sum(s.reserved), 0)::bigint FROM credit_stripes s WHERE s.merchant_id = merchant);
END;
$$;

-- Reserves `fee` for a live payment of `merchant` and returns the stripe it sits on (the payment
-- keeps it: payments.fee_stripe). Raises GW402 (merchant_credit_exhausted) when the merchant's
-- available credit, balance − every reserved fee, is below the fee.
CREATE OR REPLACE FUNCTION credit_reserve(merchant uuid, fee bigint) RETURNS smallint LANGUAGE plpgsql AS $$
DECLARE
  n constant smallint := credit_stripe_count();
  k constant smallint := floor(random() * n)::smallint;
  free bigint;
  share bigint;
BEGIN
  UPDATE credit_stripes s SET reserved = s.reserved + fee
   WHERE s.merchant_id = merchant AND s.stripe = k AND s.lease - s.reserved >= fee;
  IF FOUND THEN
    RETURN k;
  END IF;
  -- The refill: the merchant's row (ledger writers and other refills wait), then every stripe.
  PERFORM FROM merchants m WHERE m.id = merchant FOR NO KEY UPDATE;
  INSERT INTO credit_stripes (merchant_id, stripe) SELECT merchant, i FROM generate_series(0, n - 1) i ON CONFLICT DO NOTHING;
  PERFORM FROM credit_stripes s WHERE s.merchant_id = merchant ORDER BY s.stripe FOR NO KEY UPDATE;
  free := credit_available(merchant);
  IF free < fee THEN
    RAISE EXCEPTION 'merchant credit exhausted' USING ERRCODE = 'GW402';
  END IF;
  -- Every stripe gets an equal share of what is free after this fee; stripe k also the fee and the
  -- remainder. The leases then add up to the balance exactly.
  share := (free - fee) / n;
  UPDATE credit_stripes s
     SET lease = s.reserved + share + CASE WHEN s.stripe = k THEN fee + (free - fee) - share * n ELSE 0 END,
         reserved = s.reserved + CASE WHEN s.stripe = k THEN fee ELSE 0 END
   WHERE s.merchant_id = merchant;
  RETURN k;
END;
$$;

-- A live payment's fee leaves its stripe when debited (reserved and lease both fall: the balance
-- fell too) or released (reserved falls, the lease stays lent); a fee charged again after its release
-- moves no reservation, and every free lease is taken back, since the balance fell by what no lease
-- had lent (src/domain/credit/fees.ts `chargeReleasedFee`).
CREATE OR REPLACE FUNCTION credit_stripes_follow_fee() RETURNS trigger LANGUAGE plpgsql AS $$
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
