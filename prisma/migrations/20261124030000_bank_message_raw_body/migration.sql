-- Postgres text cannot hold NUL: an SMS body containing it (or an unpaired UTF-16 surrogate) is
-- stored escaped in `body`, and exactly as sent, as a JSON string literal, here.
ALTER TABLE bank_messages ADD COLUMN body_raw text;
