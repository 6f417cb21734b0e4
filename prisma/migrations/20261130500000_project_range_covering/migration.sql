-- One project's figures over a date range (paymentStats with a project, exports of a project) read
-- that project's range of payments_project_created_idx, index-only, whatever else its merchant did
-- (issue 40, docs/BENCHMARKS.md "Growth"). Before, on a year of data, the planner took the
-- merchant's range of payments_merchant_created_idx and kept the project's rows out of it: 41 ms
-- instead of 0.6 ms for a project whose merchant had ~50,000 payments in the 30 days (another
-- project's), and on a small table a bitmap over the project's whole history. The list's key (and
-- so its order) is unchanged; the stats' columns join it, as payments_merchant_created_idx has them.
--
-- A live upgrade on a big table: this CREATE INDEX holds writes to payments (creates, confirmations)
-- while it builds, and migrations run in a transaction (src/db/migrate.ts), where CONCURRENTLY
-- cannot run. So before upgrading a large database, build it by hand, without blocking writes
-- (docs/operations.md "Upgrades and migrations"):
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS payments_project_created_covering_idx ON payments
--     (project_id, created_at DESC, id DESC)
--     INCLUDE (merchant_id, status, review_required, amount_received, refunded_amount, fee_amount, fee_state, sandbox);
-- and this migration's CREATE is then a no-op; the DROP and the RENAME are catalog changes. A
-- concurrent build that failed leaves an invalid index: it is dropped here and built again.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              WHERE c.relname = 'payments_project_created_covering_idx' AND NOT i.indisvalid) THEN
    DROP INDEX payments_project_created_covering_idx;
  END IF;
END $$;
CREATE INDEX IF NOT EXISTS payments_project_created_covering_idx ON payments
  (project_id, created_at DESC, id DESC)
  INCLUDE (merchant_id, status, review_required, amount_received, refunded_amount, fee_amount, fee_state, sandbox);
DROP INDEX payments_project_created_idx;
ALTER INDEX payments_project_created_covering_idx RENAME TO payments_project_created_idx;
