-- Device health (issue 11 item 5). last_heartbeat_at stays the "last seen" column card choice
-- reads (the create_payment function): every authenticated device request now stamps it, at most
-- once per few seconds. last_message_at is the last SMS posted. offline_since is the notified state:
-- set in the statement that decides to send device.offline, cleared in the one that sends
-- device.online, so each transition is sent once whichever worker or request gets there first.
ALTER TABLE devices
  ADD COLUMN last_message_at timestamptz(3),
  ADD COLUMN offline_since   timestamptz(3);

-- The health sweep reads devices not yet reported offline by how long they have been silent...
CREATE INDEX devices_silent_idx ON devices (last_heartbeat_at) WHERE offline_since IS NULL AND revoked_at IS NULL;
-- ...and the few reported offline, to send a device.online a crashed request missed.
CREATE INDEX devices_reported_offline_idx ON devices (offline_since) WHERE offline_since IS NOT NULL;

-- A device's transitions, one row each, with the webhook body's fields as they were. Kept apart
-- from events (payment events: payment_id NOT NULL, one per payment and type, per-payment order)
-- so nothing about payment events changes; a delivery names one or the other.
CREATE TABLE device_events (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  device_id  uuid NOT NULL REFERENCES devices(id),
  type       text NOT NULL CHECK (type IN ('device.offline', 'device.online')),
  payload    json NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX device_events_device_id_created_at_idx ON device_events (device_id, created_at);

ALTER TABLE webhook_deliveries
  ADD COLUMN device_event_id uuid REFERENCES device_events(id),
  DROP CONSTRAINT webhook_deliveries_event_or_test,
  ADD CONSTRAINT webhook_deliveries_one_subject
    CHECK (num_nonnulls(event_id, device_event_id) <= 1 AND (test OR num_nonnulls(event_id, device_event_id) = 1)),
  ADD CONSTRAINT webhook_deliveries_device_event_endpoint_key UNIQUE (device_event_id, endpoint_id);

-- The events an endpoint opted into; existing endpoints keep receiving exactly what they did.
ALTER TABLE webhook_endpoints
  ADD COLUMN events text[] NOT NULL DEFAULT ARRAY['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled'],
  ADD CONSTRAINT webhook_endpoints_events_known CHECK (
    cardinality(events) >= 1
    AND events <@ ARRAY['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled', 'device.offline', 'device.online']
  );
