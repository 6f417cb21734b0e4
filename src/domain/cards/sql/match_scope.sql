-- The match scope (amount holds: docs/integration.md "1. Create a payment"): where a card's
-- deposits are read, so where its payments hold their amounts. A card's device, or the card alone
-- when it has no device. Owned here: the create function, the money-integrity triggers (through
-- card_match_scope) and card moves (src/domain/cards/move-holds.ts) call it. `matchScope` in
-- src/domain/cards/selection.ts repeats it for the flows, which key hold lookups by it before any
-- statement runs; test/db/rule-owners.test.ts holds the two equal.
CREATE OR REPLACE FUNCTION match_scope(card_id uuid, device_id uuid) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN device_id IS NULL THEN 'card:' || card_id::text ELSE 'device:' || device_id::text END
$$;

-- The scope of a card as it is now.
CREATE OR REPLACE FUNCTION card_match_scope(card_id uuid) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT match_scope(c.id, c.device_id) FROM cards c WHERE c.id = card_match_scope.card_id
$$;

-- The advisory lock of one scope, until commit: card moves take it exclusively
-- (`pg_advisory_xact_lock`), creates shared (`pg_advisory_xact_lock_shared`), so a move waits for the
-- creates in flight in its scopes and holds new ones back, while creates on a phone's cards run side
-- by side (each under its card's lock, `card_lock_key`; the unique index over live holds settles two
-- of them drawing one amount). Seed 0 is the match scopes' namespace (src/domain/auth/credential-limits.ts
-- lists the others).
CREATE OR REPLACE FUNCTION match_scope_lock_key(scope text) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT hashtextextended(scope, 0)
$$;

-- The lock of one card's allocations (caps and code draw on that card), until commit. Seed 5: the
-- cards' namespace (src/domain/auth/credential-limits.ts lists the others).
CREATE OR REPLACE FUNCTION card_lock_key(card_id uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT hashtextextended(card_id::text, 5)
$$;
