-- Evidence before money (CONTRACT "Bank messages and matching"): a deposit is auto-confirmed only
-- when its sender is a known sender of its bank, its balance agrees with the account's previous
-- message, and its bank reference was not seen before.

-- The balance (مانده) the SMS reports after its movement, for the balance chain per account.
ALTER TABLE bank_messages ADD COLUMN balance bigint;
CREATE INDEX bank_messages_balance_chain_idx ON bank_messages (merchant_id, bank_code, account_hint, bank_time)
  WHERE balance IS NOT NULL;

-- One deposit per bank reference, account and amount, however many times it arrives (two phones,
-- a re-send, a backfill): later copies are duplicates of the first. A copy that found no card of
-- its phone (`unmatched`: a phone that does not hold the card forwarded it first) does not count,
-- so the copy from the card's own phone is still matched; an unmatched copy confirmed nothing.
CREATE UNIQUE INDEX bank_messages_one_deposit_per_reference ON bank_messages (merchant_id, bank_code, coalesce(account_hint, ''), reference, amount)
  WHERE reference IS NOT NULL AND direction = 'deposit' AND duplicate_of_id IS NULL AND status <> 'unmatched';

-- A sender id the merchant vouches for, for this card's bank SMS (in addition to the bank's known ones).
ALTER TABLE cards ADD COLUMN sms_sender text CHECK (length(sms_sender) BETWEEN 1 AND 40);

-- Why a payment waits for the merchant: the evidence that failed too.
ALTER TABLE payments DROP CONSTRAINT payments_review_reason_check;
ALTER TABLE payments ADD CONSTRAINT payments_review_reason_check CHECK (review_reason IN (
  'amount_without_code', 'ambiguous_deposit', 'payer_reported_no_deposit',
  'unknown_sender', 'balance_mismatch', 'unrecognized_format'));
