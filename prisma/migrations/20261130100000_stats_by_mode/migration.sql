-- Live and sandbox apart (CONTRACT "Merchant self-service"): paymentStats counts one mode, so the
-- mode joins the index's included columns and a merchant-wide range stays an index-only scan
-- (test/reports/payment-stats.test.ts checks the plan).
DROP INDEX payments_merchant_created_idx;
CREATE INDEX payments_merchant_created_idx ON payments (merchant_id, created_at, id)
  INCLUDE (project_id, status, review_required, amount_received, refunded_amount, fee_amount, fee_state, sandbox);
