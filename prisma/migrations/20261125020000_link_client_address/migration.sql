-- Payment links are public, so one payer must not use up a merchant's cards or credit (CONTRACT
-- "Checkout page", issue 17): one client address holds at most 3 pending payments of one link at a
-- time. A link payment records the address it came from; its create, in one transaction, takes an
-- advisory lock on (link, address) and counts that link's pending payments from the address before
-- it allocates (src/domain/links/client-cap.ts), so concurrent creates from every API process are
-- counted one after another.
ALTER TABLE payments ADD COLUMN link_client_address text;
ALTER TABLE payments ADD CONSTRAINT payments_link_client_has_link CHECK (link_client_address IS NULL OR link_id IS NOT NULL);

-- The count reads only these rows.
CREATE INDEX payments_link_client_pending_idx ON payments (link_id, link_client_address, expires_at)
  WHERE status = 'pending' AND link_client_address IS NOT NULL;
