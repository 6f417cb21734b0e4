-- A live hold sits in the match scope of its payment's card as the card is now (docs/decisions.md
-- "Money guards in the database", docs/security.md "Cards moving between phones"): a card's
-- deposits confirm that card's payments wherever the card moved. Card moves carry the holds along
-- in the same transaction, or are refused (`moveCardHolds`, src/domain/cards/move-holds.ts); these
-- check it at commit, through card_match_scope (match_scope.sql, listed before this file). Only a
-- bug reaches them: SQLSTATE GWM01.
-- The triggers are schema: amount_holds_in_card_scope (AFTER INSERT OR UPDATE ON amount_holds) and
-- cards_holds_follow (AFTER UPDATE OF device_id ON cards), both deferred, migration
-- 20261124010000_money_integrity.

CREATE OR REPLACE FUNCTION amount_holds_in_card_scope() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  expected text;
BEGIN
  IF NEW.released_at IS NOT NULL THEN RETURN NULL; END IF;
  SELECT card_match_scope(p.card_id) INTO expected FROM payments p WHERE p.id = NEW.payment_id;
  IF NEW.scope IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'hold of payment % is in scope %, its card is in %', NEW.payment_id, NEW.scope, expected
      USING ERRCODE = 'GWM01';
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION cards_holds_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stray uuid;
BEGIN
  SELECT h.payment_id INTO stray FROM amount_holds h JOIN payments p ON p.id = h.payment_id
   WHERE p.card_id = NEW.id AND h.released_at IS NULL AND h.scope <> card_match_scope(NEW.id) LIMIT 1;
  IF stray IS NOT NULL THEN
    RAISE EXCEPTION 'card % moved but the hold of payment % stayed behind', NEW.id, stray USING ERRCODE = 'GWM01';
  END IF;
  RETURN NULL;
END;
$$;
