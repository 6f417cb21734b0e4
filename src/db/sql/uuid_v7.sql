-- Time-ordered ids (UUID version 7, RFC 9562), the database default of the id of every table that
-- grows with payments, messages and deliveries (migration time_ordered_ids; docs/decisions.md
-- "Time-ordered ids for the growing tables"): the first 48 bits are the Unix time in milliseconds,
-- so new index entries land on the primary key's right edge. Prisma makes the same ids itself (`@default(uuid(7))`), the
-- create its payment's (src/domain/payments/create-payment.ts); this is for rows inserted by SQL.
-- PostgreSQL 18 has uuidv7(); on an older server (DATABASE_URL may be one) the same layout is built
-- from gen_random_uuid(): its first 48 bits replaced by the time, its version bits set to 7.
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
