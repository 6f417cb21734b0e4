-- The credit ledger is append-only: a correction is a new entry, never an edit, so a merchant's
-- balance is always the sum of its entries (src/domain/credit/ledger.ts appends and moves the
-- balance under the merchant's row lock; test/db/invariants.test.ts). The trigger
-- credit_ledger_no_update (BEFORE UPDATE OR DELETE ON credit_ledger_entries) is schema: migration
-- 20261121100000_init.
CREATE OR REPLACE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_ledger_entries is append-only' USING ERRCODE = 'restrict_violation';
END;
$$;
