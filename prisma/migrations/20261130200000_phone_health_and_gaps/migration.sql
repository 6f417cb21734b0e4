-- Phone health and lost messages (issue 37; docs/forwarders.md "Phone health").
-- The phone's last telemetry (each optional in a heartbeat) and its health as last decided by the
-- device-health sweep: `health` is the notified state, like offline_since, so each change is
-- recorded (and its event sent) once whichever worker gets there first. A new phone is offline
-- until it is first seen.
ALTER TABLE devices
  ADD COLUMN battery      smallint CHECK (battery BETWEEN 0 AND 100),
  ADD COLUMN charging     boolean,
  ADD COLUMN network      text CHECK (network IN ('wifi', 'mobile', 'none')),
  ADD COLUMN app_version  text CHECK (char_length(app_version) <= 64),
  ADD COLUMN health       text NOT NULL DEFAULT 'offline' CHECK (health IN ('ok', 'low_battery', 'offline', 'silent')),
  ADD COLUMN health_since timestamptz(3);

-- Device.healthEvents: one row each time `health` changes.
CREATE TABLE device_health_events (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  device_id   uuid NOT NULL REFERENCES devices(id),
  from_health text NOT NULL CHECK (from_health IN ('ok', 'low_battery', 'offline', 'silent')),
  to_health   text NOT NULL CHECK (to_health IN ('ok', 'low_battery', 'offline', 'silent')),
  at          timestamptz(3) NOT NULL DEFAULT now(),
  CHECK (from_health <> to_health)
);
CREATE INDEX device_health_events_device_at_idx ON device_health_events (device_id, at DESC, id DESC);

-- "Silent" reads a phone's last message from a bank's parser (not simulated) by time.
CREATE INDEX bank_messages_device_bank_idx ON bank_messages (device_id, created_at DESC)
  WHERE bank_code IS NOT NULL AND NOT simulated;

-- A balance gap: a trusted sender's message whose balance its card's previous trusted balance and
-- its own amount do not explain. Its end (to_message_id; to_at and to_balance say where it sits in
-- the bank's order) is the earliest held message after the money whose SMS never came.
CREATE TABLE balance_gaps (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id         uuid NOT NULL REFERENCES merchants(id),
  project_id          uuid NOT NULL REFERENCES projects(id),
  card_id             uuid NOT NULL REFERENCES cards(id),
  -- Null when the previous reference is the card's opening balance.
  from_message_id     uuid REFERENCES bank_messages(id),
  from_balance        bigint NOT NULL,
  to_message_id       uuid NOT NULL REFERENCES bank_messages(id),
  to_at               timestamptz(3) NOT NULL,
  to_balance          bigint NOT NULL,
  -- Signed rials: positive = deposits whose SMS never came.
  amount              bigint NOT NULL CHECK (amount <> 0),
  status              text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
  detected_at         timestamptz(3) NOT NULL DEFAULT now(),
  resolved_at         timestamptz(3),
  resolved_payment_id uuid REFERENCES payments(id),
  -- The message that arrived late and explained the gap by itself.
  explained_by_message_id uuid REFERENCES bank_messages(id),
  decision_note       text,
  created_at          timestamptz(3) NOT NULL DEFAULT now(),
  updated_at          timestamptz(3) NOT NULL DEFAULT now(),
  CHECK ((status = 'open') = (resolved_at IS NULL)),
  CHECK (resolved_payment_id IS NULL OR status = 'resolved')
);
-- Once per gap: one gap ends at one place of a card's chain (a re-send of its end message, or a
-- copy from a second phone, finds it taken); a payment is the evidence of at most one gap.
CREATE UNIQUE INDEX balance_gaps_once ON balance_gaps (card_id, to_at, to_balance);
CREATE UNIQUE INDEX balance_gaps_one_per_payment ON balance_gaps (resolved_payment_id) WHERE resolved_payment_id IS NOT NULL;
CREATE INDEX balance_gaps_merchant_idx ON balance_gaps (merchant_id, status, detected_at DESC, id DESC);
CREATE INDEX balance_gaps_open_card_idx ON balance_gaps (card_id) WHERE status = 'open';
CREATE INDEX balance_gaps_to_message_idx ON balance_gaps (to_message_id);

-- The new event types: device.low_battery and device.silent (device events), card.balance_gap (an
-- event naming the held message that revealed the gap). All opt-in.
ALTER TABLE device_events DROP CONSTRAINT device_events_type_check;
ALTER TABLE device_events
  ADD CONSTRAINT device_events_type_check CHECK (type IN ('device.offline', 'device.online', 'device.low_battery', 'device.silent'));
ALTER TABLE events DROP CONSTRAINT events_type_check, DROP CONSTRAINT events_one_subject;
ALTER TABLE events
  ADD CONSTRAINT events_type_check CHECK (type IN ('payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled',
    'payment.refunded', 'payment.review_required', 'bank_message.needs_review', 'card.balance_gap')),
  ADD CONSTRAINT events_one_subject CHECK (
    CASE WHEN type IN ('bank_message.needs_review', 'card.balance_gap') THEN payment_id IS NULL AND bank_message_id IS NOT NULL
         ELSE payment_id IS NOT NULL AND bank_message_id IS NULL END);
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_events_known;
ALTER TABLE webhook_endpoints
  ADD CONSTRAINT webhook_endpoints_events_known CHECK (
    cardinality(events) >= 1
    AND events <@ ARRAY['payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled', 'payment.refunded',
                        'payment.review_required', 'bank_message.needs_review', 'card.balance_gap', 'device.offline', 'device.online',
                        'device.low_battery', 'device.silent']
  );
