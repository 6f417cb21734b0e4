-- The fee a live payment reserves at creation (docs/dashboard.md "Credit and fees"), in rials:
-- clamp(floor(amountFinal × bps / 10,000), min, max). Defined here only: the create function calls
-- it (its credit pre-check and the reservation); a confirmation debits, and a release gives back,
-- the amount stored on the payment, never a recomputed one. test/db/rule-owners.test.ts checks it
-- at and around every clamp.
CREATE OR REPLACE FUNCTION payment_fee(amount_final bigint, bps integer, fee_min bigint, fee_max bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN raw < fee_min THEN fee_min WHEN raw > fee_max THEN fee_max ELSE raw END
  FROM (SELECT (amount_final * bps) / 10000 AS raw) r
$$;
