-- Evidence keyed on the card, not on how the SMS spells the account (issue 17; CONTRACT "Bank
-- messages and matching"). A message is `trusted` when the service resolved it to one card of its
-- phone, the card's bank is the layout's bank, the sender is a known sender of that bank (or one
-- the merchant vouched for on the card), and its balance follows the card's previous trusted
-- balance. Only trusted messages are the balance chain's reference and the "original" of a
-- duplicate; a fake SMS (anyone can text a merchant's phone) is never trusted, so it can neither
-- hold back the genuine deposits after it nor turn them into duplicates of itself.
ALTER TABLE bank_messages ADD COLUMN trusted boolean NOT NULL DEFAULT false;
-- The evidence check a message failed (unknown_sender, balance_mismatch, bank_mismatch,
-- unrecognized_format), whatever became of it: a message whose only fault was its balance is
-- trusted later when a trusted message it follows arrives after it (out-of-order delivery).
ALTER TABLE bank_messages ADD COLUMN evidence_problem text CHECK (evidence_problem IN ('unknown_sender', 'balance_mismatch', 'bank_mismatch', 'unrecognized_format'));

-- Messages stored before this migration start untrusted: each card's chain starts again from its
-- next message that passes the checks (as a new card's does), rather than trusting a history
-- written under the weaker rules.

-- The balance chain per card: the latest trusted message with a balance before a given time.
DROP INDEX IF EXISTS bank_messages_balance_chain_idx;
CREATE INDEX bank_messages_card_chain_idx ON bank_messages (card_id, (coalesce(bank_time, received_at)), created_at)
  WHERE trusted AND balance IS NOT NULL;

-- One deposit per bank reference and amount at one bank, however it arrived or spelled the
-- account: a later trusted copy would be a duplicate of the first (the advisory lock in the
-- evidence step decides; this index is the backstop).
DROP INDEX IF EXISTS bank_messages_one_deposit_per_reference;
CREATE UNIQUE INDEX bank_messages_one_deposit_per_reference ON bank_messages (merchant_id, bank_code, reference, amount)
  WHERE trusted AND reference IS NOT NULL AND direction = 'deposit' AND duplicate_of_id IS NULL;

-- One deposit per card, amount, resulting balance and bank time: a re-sent SMS with another
-- reference or receivedAt is the same money.
CREATE UNIQUE INDEX bank_messages_one_deposit_per_balance ON bank_messages (card_id, amount, balance, (coalesce(bank_time, '-infinity'::timestamptz)))
  WHERE trusted AND balance IS NOT NULL AND direction = 'deposit' AND duplicate_of_id IS NULL;

-- Messages held only for their balance, per card, waiting for the message they follow.
CREATE INDEX bank_messages_card_waiting_idx ON bank_messages (card_id, balance)
  WHERE NOT trusted AND evidence_problem = 'balance_mismatch' AND duplicate_of_id IS NULL;

-- Content duplicates are looked up per card.
CREATE INDEX bank_messages_card_deposits_idx ON bank_messages (card_id, amount)
  WHERE trusted AND direction = 'deposit' AND duplicate_of_id IS NULL;

-- A message parsed as one bank's layout for another bank's card is held too.
ALTER TABLE payments DROP CONSTRAINT payments_review_reason_check;
ALTER TABLE payments ADD CONSTRAINT payments_review_reason_check CHECK (review_reason IN (
  'amount_without_code', 'ambiguous_deposit', 'payer_reported_no_deposit',
  'unknown_sender', 'balance_mismatch', 'bank_mismatch', 'unrecognized_format'));
