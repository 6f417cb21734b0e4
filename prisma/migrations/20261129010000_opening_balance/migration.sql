-- Opening balance (issue 34): the balance the bank's app shows when the merchant adds a card (or
-- re-anchors it), and when it was given. It is the card's first chain reference, so a forged first
-- SMS cannot become the reference by arriving first (trust on first use); see docs/security.md.
-- Both or neither: a balance without its time could not be placed in the bank's order.
ALTER TABLE cards
  ADD COLUMN opening_balance    bigint,
  ADD COLUMN opening_balance_at timestamptz(3),
  ADD CONSTRAINT cards_opening_balance_ck CHECK (
    (opening_balance IS NULL) = (opening_balance_at IS NULL) AND (opening_balance IS NULL OR opening_balance >= 0)
  );
