-- A payment's fee is charged once, exactly (docs/decisions.md "Money guards in the database"): a
-- confirmed live payment has exactly one fee debit in the ledger, of its fee_amount (none for a
-- zero fee), and a fee debit belongs to a confirmed live payment of the same merchant. Both are
-- checked at commit (deferred constraint triggers), whatever order the transaction wrote in. The
-- code debits through `debitReservedFee` and `chargeReleasedFee` (src/domain/credit/fees.ts);
-- the unique index credit_ledger_one_fee_per_payment and the CHECKs of credit_ledger_entries say
-- part of it again. Only a bug reaches these: SQLSTATE GWM01.
-- The triggers are schema: payments_fee_debited_once (AFTER UPDATE ON payments) and
-- credit_ledger_fee_matches_payment (AFTER INSERT ON credit_ledger_entries), migration
-- 20261124010000_money_integrity.

CREATE OR REPLACE FUNCTION payments_fee_debited_once() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE FUNCTION credit_ledger_fee_matches_payment() RETURNS trigger LANGUAGE plpgsql AS $$
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
