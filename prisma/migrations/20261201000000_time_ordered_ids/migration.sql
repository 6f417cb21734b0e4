-- Time-ordered ids (UUID version 7, RFC 9562) for the tables that grow with every payment, message
-- and delivery (issue 40, docs/BENCHMARKS.md "Time-ordered ids"). A random (version 4) primary key
-- puts each new row's index entry on a random leaf page of an index of tens of millions of entries:
-- once that index outgrows memory, every insert reads a page from disk and, after each checkpoint,
-- writes a whole page image to the WAL. A version 7 id starts with its millisecond, so new entries
-- land on the index's right edge, which stays in memory. Ids stay UUIDs (the API's format); they now
-- tell when the row was made, which the rows' createdAt already says to anyone who can read them.
-- Prisma makes these ids itself (`@default(uuid(7))`); the default below is for rows inserted by SQL.
-- PostgreSQL 18 has uuidv7(); on an older server (DATABASE_URL may be one) the same layout is built
-- from gen_random_uuid(): the first 48 bits replaced by the Unix time in milliseconds, version 7.
DO $do$
BEGIN
  IF current_setting('server_version_num')::int >= 180000 THEN
    EXECUTE $f$CREATE OR REPLACE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS 'SELECT uuidv7()'$f$;
  ELSE
    EXECUTE $f$CREATE OR REPLACE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $b$
      SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
        PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
    $b$$f$;
  END IF;
END
$do$;

ALTER TABLE payments ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE bank_messages ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE events ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE webhook_deliveries ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE webhook_attempts ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE audit_events ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE credit_ledger_entries ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE refunds ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE device_events ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE device_health_events ALTER COLUMN id SET DEFAULT uuid_v7();
ALTER TABLE login_attempts ALTER COLUMN id SET DEFAULT uuid_v7();
