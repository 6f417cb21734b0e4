-- A phone's last message from its bank ("silent", src/domain/devices/store/health.ts) counts only a
-- sender the card knows (docs/security.md: an unknown sender is never evidence), but the index it
-- reads held every parsed message, unknown senders' too. A phone whose recent messages came from an
-- unknown sender (a forger's look-alike line, or a bank line not vouched yet) made the device-health
-- sweep walk all of them, a heap read each, on every tick: 387 ms a call on the year of data
-- (docs/BENCHMARKS.md "Scale 1: the expiry burst after load, explained"). The index now holds what
-- the statement asks for, so the first entry is the answer.
--
-- A live upgrade on a big table: as migration 20261130500000_project_range_covering says, build it
-- first by hand without blocking writes (docs/operations.md "Upgrades and migrations"):
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS bank_messages_device_trusted_idx ON bank_messages (device_id, created_at DESC)
--     WHERE bank_code IS NOT NULL AND NOT simulated AND evidence_problem IS DISTINCT FROM 'unknown_sender';
-- and this migration's CREATE is then a no-op. A concurrent build that failed is dropped and built again.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              WHERE c.relname = 'bank_messages_device_trusted_idx' AND NOT i.indisvalid) THEN
    DROP INDEX bank_messages_device_trusted_idx;
  END IF;
END $$;
CREATE INDEX IF NOT EXISTS bank_messages_device_trusted_idx ON bank_messages (device_id, created_at DESC)
  WHERE bank_code IS NOT NULL AND NOT simulated AND evidence_problem IS DISTINCT FROM 'unknown_sender';
DROP INDEX bank_messages_device_bank_idx;
