-- A payment's receipt code and the deposit that confirmed it are unique among the payments that have
-- one; the others (pending, expired, canceled: most of a year's rows) hold NULL there, and a plain
-- UNIQUE indexed every NULL too. Each update of a payment that is not HOT (an expiry, a confirmation:
-- the status is in partial-index predicates) added an entry for its new row version in the NULL
-- range of both indexes, placed by the row's new heap position, so on a year of data each one read
-- and logged (a full-page image after every checkpoint) a leaf anywhere in 10 M entries: on the
-- scale-1 fill these two indexes made most of the expiry drain's index reads (1,838 of 3,122) and a
-- worker expired 749 payments a second there against 1,254 on the empty database (docs/BENCHMARKS.md
-- "Scale 1: the expiry burst after load, explained"). As partial unique indexes (same names, same
-- rule for every non-NULL value) they hold only the confirmed payments.
--
-- A live upgrade on a big table: build both by hand first, without blocking writes
-- (docs/operations.md "Upgrades and migrations"), under these temporary names:
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS payments_receipt_code_partial ON payments (receipt_code) WHERE receipt_code IS NOT NULL;
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS payments_confirmed_by_message_partial ON payments (confirmed_by_message_id) WHERE confirmed_by_message_id IS NOT NULL;
-- and this migration's CREATEs are then no-ops. A concurrent build that failed is dropped and built again.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              WHERE c.relname IN ('payments_receipt_code_partial', 'payments_confirmed_by_message_partial') AND NOT i.indisvalid) THEN
    DROP INDEX IF EXISTS payments_receipt_code_partial;
    DROP INDEX IF EXISTS payments_confirmed_by_message_partial;
  END IF;
END $$;
CREATE UNIQUE INDEX IF NOT EXISTS payments_receipt_code_partial ON payments (receipt_code) WHERE receipt_code IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS payments_confirmed_by_message_partial ON payments (confirmed_by_message_id) WHERE confirmed_by_message_id IS NOT NULL;
ALTER TABLE payments DROP CONSTRAINT payments_receipt_code_key;
ALTER TABLE payments DROP CONSTRAINT payments_confirmed_by_message_id_key;
ALTER INDEX payments_receipt_code_partial RENAME TO payments_receipt_code_key;
ALTER INDEX payments_confirmed_by_message_partial RENAME TO payments_confirmed_by_message_id_key;
