-- Chat notifications (issue 38, docs/notifications.md): Telegram and Bale chats linked to dashboard
-- users, the one-time codes that link them, the lease that keeps one poller per bot, the messages
-- that carry decision buttons (looked up by a random token, never trusted from the chat), and the
-- send-rate slots (one message a second per chat, 25 a second per bot).

CREATE TABLE chat_links (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  platform    text NOT NULL CHECK (platform IN ('TELEGRAM', 'BALE')),
  chat_id     bigint NOT NULL,
  chat_title  text NOT NULL,
  events      text[] NOT NULL,
  -- The Jalali day whose summary the chat was last sent (once a day, however often the job runs).
  summary_day text,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (platform, chat_id, user_id)
);
CREATE INDEX chat_links_user_id_idx ON chat_links (user_id);

-- Stored as SHA-256 of the code; 10 minutes, one use.
CREATE TABLE chat_link_codes (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  platform    text NOT NULL CHECK (platform IN ('TELEGRAM', 'BALE')),
  code_hash   text NOT NULL UNIQUE,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  expires_at  timestamptz(3) NOT NULL,
  used_at     timestamptz(3)
);
CREATE INDEX chat_link_codes_user_id_idx ON chat_link_codes (user_id);

-- One row per bot: who polls it until when, and the next update to ask for.
CREATE TABLE chat_pollers (
  platform      text PRIMARY KEY CHECK (platform IN ('TELEGRAM', 'BALE')),
  holder        text NOT NULL,
  expires_at    timestamptz(3) NOT NULL,
  update_offset bigint NOT NULL DEFAULT 0,
  bot_username  text
);

-- A notification that carries decision buttons: what it is about, and once decided, the outcome.
CREATE TABLE chat_prompts (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  link_id       uuid NOT NULL REFERENCES chat_links(id) ON DELETE CASCADE,
  subject_type  text NOT NULL,
  subject_id    uuid NOT NULL,
  text          text NOT NULL,
  message_id    bigint,
  decided_at    timestamptz(3),
  outcome       text,
  created_at    timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX chat_prompts_link_id_idx ON chat_prompts (link_id);
CREATE INDEX chat_prompts_subject_idx ON chat_prompts (subject_id);

-- A button's callback_data is its token: the action and its targets are read from here.
CREATE TABLE chat_buttons (
  token       text PRIMARY KEY,
  prompt_id   uuid NOT NULL REFERENCES chat_prompts(id) ON DELETE CASCADE,
  position    int NOT NULL DEFAULT 0,
  action      text NOT NULL CHECK (action IN ('attach', 'dismiss', 'dismiss_review', 'resolve_gap')),
  label       text NOT NULL,
  message_id  uuid,
  payment_id  uuid,
  gap_id      uuid
);
CREATE INDEX chat_buttons_prompt_id_idx ON chat_buttons (prompt_id);

-- Send slots: the earliest instant the next message of a chat (or a bot) may go.
CREATE TABLE chat_send_slots (
  key         text PRIMARY KEY,
  next_at     timestamptz(3) NOT NULL,
  -- A 429's retry_after: nothing goes to the chat before this, slots reserved earlier included.
  held_until  timestamptz(3)
);
