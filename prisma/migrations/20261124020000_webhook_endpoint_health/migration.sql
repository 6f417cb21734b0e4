-- Endpoint health (Svix/Stripe style): an endpoint whose every attempt failed for 5 days is disabled;
-- setWebhookEndpoint re-enables it. failing_since is the first failed attempt since the last success.
ALTER TABLE webhook_endpoints
  ADD COLUMN failing_since   timestamptz(3),
  ADD COLUMN disabled_at     timestamptz(3),
  ADD COLUMN disabled_reason text,
  ADD CONSTRAINT webhook_endpoints_disabled_reason CHECK ((disabled_at IS NULL) = (disabled_reason IS NULL)),
  ADD CONSTRAINT webhook_endpoints_disabled_inactive CHECK (disabled_at IS NULL OR NOT active);

-- The recent success rate reads the attempts of the endpoint's recently attempted deliveries.
CREATE INDEX webhook_deliveries_endpoint_attempted_idx ON webhook_deliveries (endpoint_id, last_attempt_at);

-- Attempts in flight per endpoint, across every worker process: a delivery holds one of the
-- endpoint's WEBHOOK_ENDPOINT_CONCURRENCY slots while it posts. A lease, not a lock, so a worker that
-- dies mid-attempt frees its slot when leased_until passes.
CREATE TABLE webhook_endpoint_slots (
  endpoint_id  uuid NOT NULL REFERENCES webhook_endpoints (id),
  slot         integer NOT NULL CHECK (slot >= 0),
  delivery_id  uuid NOT NULL,
  leased_until timestamptz(3) NOT NULL,
  PRIMARY KEY (endpoint_id, slot)
);
