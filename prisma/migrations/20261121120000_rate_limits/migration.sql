-- Rate-limit buckets (rate-limiter-flexible's Postgres store), shared by every API process.
-- Their own schema: not domain data, so outside Prisma's model and the drift check. Unlogged: a
-- crash may forget counters, which only ever lets a few more requests through.
CREATE SCHEMA IF NOT EXISTS rate_limit;
CREATE UNLOGGED TABLE rate_limit.buckets (
  key    varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
CREATE INDEX buckets_expire_idx ON rate_limit.buckets (expire);
