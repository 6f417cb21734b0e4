-- Issue 20 (CONTRACT "Payments"): the unit a caller sent amounts in, monthly caps per card (the
-- Jalali month, Tehran time) and the card account's sheba.

-- Amounts stay rials; `currency` is the caller's unit, kept so that pages show it first.
ALTER TABLE payments
  ADD COLUMN currency text NOT NULL DEFAULT 'IRR' CONSTRAINT payments_currency_known CHECK (currency IN ('IRR', 'IRT'));

-- null = no cap. The sheba's ISO 13616 check digits: the number with `IR` + its check digits moved
-- to the end (I = 18, R = 27) leaves 1 modulo 97.
ALTER TABLE cards
  ADD COLUMN monthly_amount_cap bigint CONSTRAINT cards_monthly_amount_cap_positive CHECK (monthly_amount_cap > 0),
  ADD COLUMN monthly_count_cap integer CONSTRAINT cards_monthly_count_cap_positive CHECK (monthly_count_cap > 0),
  ADD COLUMN sheba text CONSTRAINT cards_sheba_valid CHECK (sheba IS NULL OR
    CASE WHEN sheba ~ '^IR[0-9]{24}$' THEN (substr(sheba, 5) || '1827' || substr(sheba, 3, 2))::numeric % 97 = 1 ELSE false END);

-- The create function and its per-card claim take the currency and the monthly caps: their old
-- signatures go here, and the definitions (src/domain/payments/sql/create_payment.sql, with
-- jalali_month_start in src/domain/cards/sql/jalali_month.sql) create the new ones.
DROP FUNCTION IF EXISTS create_payment(uuid, uuid, uuid, bigint, text, text, text, text, text, json, text, integer, bigint[], text);
DROP FUNCTION IF EXISTS payment_claim_code(uuid, uuid, text, bigint, integer, bigint, integer, bigint[]);
