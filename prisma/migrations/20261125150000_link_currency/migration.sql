-- Issue 20: a payment link carries the unit its merchant chose (CONTRACT "Payments", units): its
-- amounts were sent in it (stored as rials) and its page shows that unit first.
ALTER TABLE payment_links ADD COLUMN currency text NOT NULL DEFAULT 'IRR' CHECK (currency IN ('IRR', 'IRT'));
