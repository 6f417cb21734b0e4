-- Fee credit bought through the gateway itself (CONTRACT "Merchant self-service"): the operator
-- names the project that receives top-ups; a merchant's top-up is a payment on that project, and
-- its confirmation adds the payment's amountRequested to the merchant's credit exactly once
-- (src/domain/credit/topups.ts), the ledger entry `topup` naming the payment.

-- One row at most: the operator's settings.
CREATE TABLE operator_settings (
  id boolean PRIMARY KEY DEFAULT true CONSTRAINT operator_settings_one_row CHECK (id),
  topup_project_id uuid REFERENCES projects (id),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);

-- A top-up: the payment (on the top-up project) and the merchant it credits.
CREATE TABLE credit_topups (
  payment_id uuid PRIMARY KEY REFERENCES payments (id),
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  amount bigint NOT NULL CONSTRAINT credit_topups_amount_positive CHECK (amount > 0),
  credited_at timestamptz(3),
  ledger_entry_id uuid REFERENCES credit_ledger_entries (id),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT credit_topups_credited_with_entry CHECK ((credited_at IS NULL) = (ledger_entry_id IS NULL))
);
CREATE INDEX credit_topups_merchant_created_idx ON credit_topups (merchant_id, created_at);

-- A top-up entry names its payment; a payment credits at most one top-up, ever.
ALTER TABLE credit_ledger_entries DROP CONSTRAINT credit_ledger_fee_has_payment;
ALTER TABLE credit_ledger_entries ADD CONSTRAINT credit_ledger_payment_of_kind
  CHECK (CASE kind WHEN 'fee' THEN payment_id IS NOT NULL WHEN 'topup' THEN true ELSE payment_id IS NULL END);
CREATE UNIQUE INDEX credit_ledger_one_topup_per_payment ON credit_ledger_entries (payment_id) WHERE kind = 'topup';
