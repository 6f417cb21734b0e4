-- What each run of the daily retention job removed (src/domain/retention/retention.ts): /metrics
-- reads the last run from here, whichever process ran it.
CREATE TABLE retention_runs (
  id         BIGSERIAL PRIMARY KEY,
  ran_at     TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  removed    JSONB NOT NULL
);
CREATE INDEX retention_runs_ran_at_idx ON retention_runs (ran_at);
