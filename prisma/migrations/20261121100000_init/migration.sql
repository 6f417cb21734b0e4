-- The whole domain. Written by hand (no Prisma engine can run here); the money invariants that
-- Prisma's schema language cannot state live here as CHECKs, partial unique indexes and triggers.

CREATE TABLE merchants (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  active          boolean NOT NULL DEFAULT true,
  demo            boolean NOT NULL DEFAULT false,
  credit_balance  bigint NOT NULL DEFAULT 0,
  credit_reserved bigint NOT NULL DEFAULT 0 CHECK (credit_reserved >= 0),
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  updated_at      timestamptz(3) NOT NULL DEFAULT now()
);
-- One demo merchant at most: `npm start` seeds it once, `cli demo` finds it again.
CREATE UNIQUE INDEX merchants_one_demo ON merchants (demo) WHERE demo;

CREATE TABLE merchant_keys (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id  uuid NOT NULL REFERENCES merchants(id),
  key_hash     text NOT NULL UNIQUE,
  key_prefix   text NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at   timestamptz(3)
);
CREATE INDEX merchant_keys_merchant_id_idx ON merchant_keys (merchant_id);

CREATE TABLE projects (
  id                         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id                uuid NOT NULL REFERENCES merchants(id),
  name                       text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  sandbox                    boolean NOT NULL,
  active                     boolean NOT NULL DEFAULT true,
  suspended_at               timestamptz(3),
  amount_mode                text NOT NULL DEFAULT 'unique_code' CHECK (amount_mode IN ('unique_code')),
  payment_time_limit_seconds integer NOT NULL DEFAULT 900 CHECK (payment_time_limit_seconds BETWEEN 5 AND 86400),
  late_window_seconds        integer NOT NULL DEFAULT 3600 CHECK (late_window_seconds BETWEEN 0 AND 604800),
  max_code                   integer NOT NULL DEFAULT 999 CHECK (max_code BETWEEN 1 AND 9999),
  allowed_callback_hosts     text[] NOT NULL DEFAULT '{}',
  display_name               text,
  logo_url                   text,
  color                      text CHECK (color ~ '^#[0-9a-fA-F]{6}$'),
  note                       text,
  support_phone              text,
  auto_confirm               boolean NOT NULL DEFAULT true,
  fee_bps                    integer NOT NULL DEFAULT 100 CHECK (fee_bps BETWEEN 0 AND 10000),
  fee_min                    bigint NOT NULL DEFAULT 1000 CHECK (fee_min >= 0),
  fee_max                    bigint NOT NULL DEFAULT 50000,
  created_at                 timestamptz(3) NOT NULL DEFAULT now(),
  updated_at                 timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT projects_fee_range CHECK (fee_max >= fee_min),
  CONSTRAINT projects_id_merchant_key UNIQUE (id, merchant_id)
);
CREATE INDEX projects_merchant_id_idx ON projects (merchant_id);

CREATE TABLE api_keys (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id   uuid NOT NULL REFERENCES projects(id),
  key_hash     text NOT NULL UNIQUE,
  key_prefix   text NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at   timestamptz(3)
);
CREATE INDEX api_keys_project_id_idx ON api_keys (project_id);

CREATE TABLE devices (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id       uuid NOT NULL REFERENCES merchants(id),
  name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  token_hash        text NOT NULL UNIQUE,
  token_prefix      text NOT NULL,
  last_heartbeat_at timestamptz(3),
  revoked_at        timestamptz(3),
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  updated_at        timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT devices_id_merchant_key UNIQUE (id, merchant_id)
);
CREATE INDEX devices_merchant_id_idx ON devices (merchant_id);

CREATE TABLE cards (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id       uuid NOT NULL REFERENCES projects(id),
  merchant_id      uuid NOT NULL,
  device_id        uuid REFERENCES devices(id),
  bank_code        text NOT NULL CHECK (bank_code ~ '^[a-z]{2,20}$'),
  card_number      text NOT NULL CHECK (card_number ~ '^[0-9]{16}$'),
  account_number   text CHECK (account_number ~ '^[0-9.\-]{4,40}$'),
  holder_name      text NOT NULL CHECK (length(holder_name) BETWEEN 1 AND 100),
  daily_amount_cap bigint CHECK (daily_amount_cap > 0),
  daily_count_cap  integer CHECK (daily_count_cap > 0),
  active           boolean NOT NULL DEFAULT true,
  last_used_at     timestamptz(3),
  created_at       timestamptz(3) NOT NULL DEFAULT now(),
  updated_at       timestamptz(3) NOT NULL DEFAULT now(),
  -- A card's project and device belong to one merchant.
  CONSTRAINT cards_project_same_merchant FOREIGN KEY (project_id, merchant_id) REFERENCES projects (id, merchant_id),
  CONSTRAINT cards_device_same_merchant FOREIGN KEY (device_id, merchant_id) REFERENCES devices (id, merchant_id)
);
CREATE INDEX cards_project_id_idx ON cards (project_id);
CREATE INDEX cards_device_id_idx ON cards (device_id);

CREATE TABLE payment_links (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id   uuid NOT NULL REFERENCES projects(id),
  slug         text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9-]{3,64}$'),
  title        text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  description  text CHECK (length(description) <= 300),
  amount       bigint CHECK (amount BETWEEN 10000 AND 1000000000),
  min_amount   bigint CHECK (min_amount BETWEEN 10000 AND 1000000000),
  max_amount   bigint CHECK (max_amount BETWEEN 10000 AND 1000000000),
  callback_url text,
  active       boolean NOT NULL DEFAULT true,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT payment_links_fixed_or_range CHECK (amount IS NULL OR (min_amount IS NULL AND max_amount IS NULL)),
  CONSTRAINT payment_links_range_order CHECK (min_amount IS NULL OR max_amount IS NULL OR min_amount <= max_amount)
);
CREATE INDEX payment_links_project_id_idx ON payment_links (project_id);

CREATE TABLE bank_messages (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id     uuid NOT NULL REFERENCES merchants(id),
  device_id       uuid REFERENCES devices(id),
  project_id      uuid REFERENCES projects(id),
  card_id         uuid REFERENCES cards(id),
  payment_id      uuid,
  duplicate_of_id uuid REFERENCES bank_messages(id),
  simulated       boolean NOT NULL DEFAULT false,
  sender          text NOT NULL,
  body            text NOT NULL,
  body_sha256     text NOT NULL,
  received_at     timestamptz(3) NOT NULL,
  status          text NOT NULL DEFAULT 'received'
    CHECK (status IN ('received', 'matched', 'needs_review', 'unmatched', 'ignored', 'unparsed', 'duplicate', 'dismissed')),
  status_reason   text,
  bank_code       text,
  direction       text CHECK (direction IN ('deposit', 'withdrawal', 'otp', 'balance', 'other')),
  amount          bigint CHECK (amount > 0),
  account_hint    text,
  bank_time       timestamptz(3),
  reference       text,
  decision_note   text,
  decided_at      timestamptz(3),
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  updated_at      timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT bank_messages_duplicate_has_original CHECK ((status = 'duplicate') = (duplicate_of_id IS NOT NULL))
);
CREATE INDEX bank_messages_merchant_id_created_at_idx ON bank_messages (merchant_id, created_at);
CREATE INDEX bank_messages_project_id_created_at_idx ON bank_messages (project_id, created_at);
-- The same SMS forwarded twice (same device, body and receivedAt) is stored once as the original.
CREATE UNIQUE INDEX bank_messages_original_uq ON bank_messages (device_id, body_sha256, received_at)
  WHERE duplicate_of_id IS NULL AND device_id IS NOT NULL;

CREATE TABLE payments (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id              uuid NOT NULL REFERENCES projects(id),
  merchant_id             uuid NOT NULL REFERENCES merchants(id),
  card_id                 uuid NOT NULL REFERENCES cards(id),
  link_id                 uuid REFERENCES payment_links(id),
  status                  text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'expired', 'rejected', 'canceled')),
  amount_requested        bigint NOT NULL CHECK (amount_requested BETWEEN 10000 AND 1000000000),
  code                    integer NOT NULL CHECK (code BETWEEN 0 AND 99990 AND code % 10 = 0),
  amount_final            bigint NOT NULL,
  amount_mode             text NOT NULL CHECK (amount_mode IN ('unique_code')),
  order_id                text CHECK (length(order_id) BETWEEN 1 AND 64),
  description             text CHECK (length(description) <= 300),
  callback_url            text CHECK (length(callback_url) <= 2048),
  token                   text NOT NULL UNIQUE CHECK (token ~ '^[A-Za-z0-9_-]{43}$'),
  review_required         boolean NOT NULL DEFAULT false,
  review_reason           text CHECK (review_reason IN ('amount_without_code', 'ambiguous_deposit', 'payer_reported_no_deposit')),
  confirmation_source     text CHECK (confirmation_source IN ('auto_sms', 'manual')),
  confirmed_at            timestamptz(3),
  confirmed_by_message_id uuid UNIQUE REFERENCES bank_messages(id),
  manual_note             text,
  verified_at             timestamptz(3),
  verify_count            integer NOT NULL DEFAULT 0 CHECK (verify_count >= 0),
  expires_at              timestamptz(3) NOT NULL,
  late_until              timestamptz(3) NOT NULL,
  expired_at              timestamptz(3),
  canceled_at             timestamptz(3),
  rejected_at             timestamptz(3),
  reject_reason           text CHECK (length(reject_reason) BETWEEN 1 AND 300),
  payer_phone             text CHECK (length(payer_phone) BETWEEN 10 AND 20),
  payer_card_last4        text CHECK (payer_card_last4 ~ '^[0-9]{4}$'),
  payer_tracking_number   text CHECK (length(payer_tracking_number) <= 40),
  payer_reported_paid_at  timestamptz(3),
  metadata                json,
  sandbox                 boolean NOT NULL,
  fee_amount              bigint NOT NULL DEFAULT 0 CHECK (fee_amount >= 0),
  fee_state               text NOT NULL DEFAULT 'none' CHECK (fee_state IN ('none', 'reserved', 'debited', 'released')),
  receipt_code            text UNIQUE CHECK (receipt_code ~ '^[A-HJ-NP-Z2-9]{8}$'),
  created_at              timestamptz(3) NOT NULL DEFAULT now(),
  updated_at              timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT payments_amount_final_is_requested_plus_code CHECK (amount_final = amount_requested + code),
  CONSTRAINT payments_late_after_expiry CHECK (late_until >= expires_at),
  CONSTRAINT payments_confirmed_has_time CHECK ((status = 'confirmed') = (confirmed_at IS NOT NULL)),
  CONSTRAINT payments_confirmed_has_source CHECK ((status = 'confirmed') = (confirmation_source IS NOT NULL)),
  CONSTRAINT payments_verified_only_confirmed CHECK (verified_at IS NULL OR status = 'confirmed'),
  CONSTRAINT payments_rejected_has_reason CHECK ((status = 'rejected') = (reject_reason IS NOT NULL)),
  CONSTRAINT payments_review_has_reason CHECK (review_required = (review_reason IS NOT NULL)),
  CONSTRAINT payments_sandbox_is_free CHECK (NOT sandbox OR (fee_amount = 0 AND fee_state = 'none')),
  -- A fee is debited exactly when the payment is confirmed (and it is a live payment).
  CONSTRAINT payments_debited_iff_confirmed CHECK (sandbox OR ((fee_state = 'debited') = (status = 'confirmed')))
);
CREATE INDEX payments_project_created_idx ON payments (project_id, created_at DESC, id DESC);
CREATE INDEX payments_project_order_idx ON payments (project_id, order_id);
CREATE INDEX payments_card_created_idx ON payments (card_id, created_at);
-- Expiry sweep and late-window release scan only these.
CREATE INDEX payments_pending_expiry_idx ON payments (expires_at) WHERE status = 'pending';
CREATE INDEX payments_reserved_late_idx ON payments (late_until) WHERE fee_state = 'reserved';

ALTER TABLE bank_messages ADD CONSTRAINT bank_messages_payment_fk FOREIGN KEY (payment_id) REFERENCES payments(id);

CREATE TABLE amount_holds (
  payment_id  uuid PRIMARY KEY REFERENCES payments(id),
  scope       text NOT NULL,
  amount      bigint NOT NULL CHECK (amount > 0),
  held_until  timestamptz(3) NOT NULL,
  released_at timestamptz(3),
  created_at  timestamptz(3) NOT NULL DEFAULT now()
);
-- The invariant that keeps one payer's transfer from confirming another's payment: within a match
-- scope, no two live holds share an amount. Stale holds are released by the allocating
-- transaction before it inserts, so "live" is a plain column the index can test.
CREATE UNIQUE INDEX amount_holds_live_uq ON amount_holds (scope, amount) WHERE released_at IS NULL;
CREATE INDEX amount_holds_held_until_idx ON amount_holds (held_until);

CREATE TABLE credit_ledger_entries (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id   uuid NOT NULL REFERENCES merchants(id),
  kind          text NOT NULL CHECK (kind IN ('topup', 'fee', 'adjustment')),
  amount        bigint NOT NULL CHECK (amount <> 0),
  balance_after bigint NOT NULL,
  payment_id    uuid REFERENCES payments(id),
  note          text,
  created_at    timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT credit_ledger_fee_has_payment CHECK ((kind = 'fee') = (payment_id IS NOT NULL)),
  CONSTRAINT credit_ledger_fee_is_debit CHECK (kind <> 'fee' OR amount < 0)
);
CREATE INDEX credit_ledger_entries_merchant_id_created_at_idx ON credit_ledger_entries (merchant_id, created_at);
-- A payment's fee is debited once.
CREATE UNIQUE INDEX credit_ledger_one_fee_per_payment ON credit_ledger_entries (payment_id) WHERE kind = 'fee';

-- The ledger is append-only: corrections are new entries, never edits.
CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_ledger_entries is append-only' USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE OR DELETE ON credit_ledger_entries
  FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only();

CREATE TABLE webhook_endpoints (
  id                          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id                  uuid NOT NULL UNIQUE REFERENCES projects(id),
  url                         text NOT NULL CHECK (length(url) <= 2048),
  secret_ciphertext           text NOT NULL,
  previous_secret_ciphertext  text,
  previous_secret_expires_at  timestamptz(3),
  active                      boolean NOT NULL DEFAULT true,
  created_at                  timestamptz(3) NOT NULL DEFAULT now(),
  updated_at                  timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT webhook_endpoints_previous_secret_expires CHECK ((previous_secret_ciphertext IS NULL) = (previous_secret_expires_at IS NULL))
);

CREATE TABLE events (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq        bigserial NOT NULL UNIQUE,
  project_id uuid NOT NULL REFERENCES projects(id),
  payment_id uuid NOT NULL REFERENCES payments(id),
  type       text NOT NULL CHECK (type IN ('payment.confirmed', 'payment.expired', 'payment.rejected', 'payment.canceled')),
  payload    json NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX events_payment_id_seq_idx ON events (payment_id, seq);
CREATE INDEX events_project_id_seq_idx ON events (project_id, seq);
-- A payment reaches each final state at most once (confirmed may follow expired, never twice).
CREATE UNIQUE INDEX events_one_per_payment_and_type ON events (payment_id, type);

CREATE TABLE webhook_deliveries (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id        uuid REFERENCES events(id),
  endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints(id),
  project_id      uuid NOT NULL REFERENCES projects(id),
  payment_id      uuid REFERENCES payments(id),
  event_type      text NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count   integer NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  next_attempt_at timestamptz(3),
  last_attempt_at timestamptz(3),
  delivered_at    timestamptz(3),
  test            boolean NOT NULL DEFAULT false,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  updated_at      timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT webhook_deliveries_event_or_test CHECK (test OR event_id IS NOT NULL),
  CONSTRAINT webhook_deliveries_event_endpoint_key UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_project_id_created_at_idx ON webhook_deliveries (project_id, created_at);
CREATE INDEX webhook_deliveries_payment_id_idx ON webhook_deliveries (payment_id);

CREATE TABLE webhook_attempts (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  delivery_id      uuid NOT NULL REFERENCES webhook_deliveries(id),
  attempt_number   integer NOT NULL CHECK (attempt_number >= 1),
  manual           boolean NOT NULL DEFAULT false,
  started_at       timestamptz(3) NOT NULL,
  duration_ms      integer NOT NULL CHECK (duration_ms >= 0),
  response_status  integer,
  response_excerpt text,
  error            text,
  CONSTRAINT webhook_attempts_delivery_attempt_key UNIQUE (delivery_id, attempt_number)
);

CREATE TABLE idempotency_keys (
  project_id      uuid NOT NULL REFERENCES projects(id),
  key             text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  request_hash    text NOT NULL,
  response_status integer NOT NULL,
  response_body   text NOT NULL,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  expires_at      timestamptz(3) NOT NULL,
  PRIMARY KEY (project_id, key)
);
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
