-- Reports and exports over a merchant's payments by creation time (CONTRACT "Exports and
-- reports"). paymentStats reads only the included columns, so over a range it is an index-only
-- scan (test/reports/payment-stats.test.ts checks the plan); a merchant-wide export walks it in
-- (created_at, id) order without sorting. A project's export uses the project's own index.
CREATE INDEX payments_merchant_created_idx ON payments (merchant_id, created_at, id)
  INCLUDE (project_id, status, review_required, amount_received, refunded_amount, fee_amount, fee_state);
