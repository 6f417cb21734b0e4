-- Time-ordered ids (UUID version 7, RFC 9562) for the tables that grow with every payment, message
-- and delivery (issue 40, docs/decisions.md "Time-ordered ids for the growing tables"). A random (version 4) primary key
-- puts each new row's index entry on a random leaf page of an index of tens of millions of entries:
-- once that index outgrows memory, an insert may read a page from disk and, after each checkpoint,
-- writes a whole page image to the WAL. A version 7 id starts with its millisecond, so new entries
-- land on the index's right edge, which stays in memory. Ids stay UUIDs (the API's format); they now
-- tell when the row was made, which the rows' createdAt already says to anyone who can read them.
-- Prisma makes these ids itself (`@default(uuid(7))`); the default below is for rows inserted by SQL.
-- uuid_v7() is defined in src/db/sql/uuid_v7.sql (a stub here, as for every function).
CREATE OR REPLACE FUNCTION uuid_v7() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$ BEGIN RAISE EXCEPTION 'defined in src/db/sql/uuid_v7.sql'; END; $$;


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
