-- Each event is told to each chat once (issue 38): a `chat-notify` job run again (a worker died
-- after its transaction committed) finds its rows here and queues nothing twice. Rows older than
-- a week are pruned by the daily summary job.
CREATE TABLE chat_notices (
  source_id   uuid NOT NULL,
  link_id     uuid NOT NULL REFERENCES chat_links(id) ON DELETE CASCADE,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (source_id, link_id)
);
CREATE INDEX chat_notices_link_id_idx ON chat_notices (link_id);
CREATE INDEX chat_notices_created_at_idx ON chat_notices (created_at);
