-- Unique codes (docs/integration.md "1. Create a payment", `unique_code`): the code step and the
-- code draw, defined here only. The create function (src/domain/payments/sql/create_payment.sql)
-- calls draw_code with its card's scope lock held; the random number it draws with comes from the
-- caller, `codeDraws()` in src/domain/codes/codes.ts. The CHECK on payments.code (migration init)
-- states the step again as the database's last line, and the unique index over live holds keeps two
-- payers of one scope from ever sharing an amount, whatever this function picks.

-- A code is a multiple of this many rials, so a toman display of a whole-toman request stays whole.
CREATE OR REPLACE FUNCTION code_step() RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT 10 $$;

-- How many of the smallest free codes a draw chooses among: few enough that codes stay small (tens
-- of rials while few payments share an amount), enough that the next payer's code is not predictable.
CREATE OR REPLACE FUNCTION code_choices() RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT 10 $$;

-- A free code in code_step()..code_step()×max_code for `amount_requested` in `scope`, or null when
-- every one is held: one of the code_choices() smallest free codes, picked by rand[1] (a
-- crypto-random number from the caller), each with the same chance. A hold past its late window is
-- released first, so its amount is free again. Creates on other cards of the same phone may be
-- drawing at the same moment (they hold their card's lock, not the phone's): each claims its amount
-- with a transaction lock (`pg_try_advisory_xact_lock`, seed 6), and a code another create is
-- claiming is passed over for the next free one, so two creates rarely meet at the unique index
-- over live holds (the backstop; the caller draws again when they do).
CREATE OR REPLACE FUNCTION draw_code(scope text, amount_requested bigint, max_code integer, rand bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  step constant integer := code_step();
  lowest constant bigint := amount_requested + step;
  highest constant bigint := amount_requested + step::bigint * max_code;
  held bigint[];
  free integer[] := '{}';
  candidate integer := step;
  next_held integer := 1;
  first integer;
  pick integer;
BEGIN
  UPDATE amount_holds h SET released_at = now()
   WHERE h.scope = draw_code.scope AND h.released_at IS NULL AND h.held_until <= now() AND h.amount BETWEEN lowest AND highest;
  SELECT coalesce(array_agg(h.amount - amount_requested ORDER BY h.amount), '{}') INTO held FROM amount_holds h
   WHERE h.scope = draw_code.scope AND h.released_at IS NULL AND h.amount BETWEEN lowest AND highest
     AND (h.amount - amount_requested) % step = 0;
  -- Free codes up from the smallest, past the held ones: enough to choose among and to pass over
  -- the ones other creates are claiming.
  WHILE cardinality(free) < code_choices() * 4 AND candidate <= step * max_code LOOP
    IF next_held <= cardinality(held) AND held[next_held] = candidate THEN
      next_held := next_held + 1;
    ELSE
      free := array_append(free, candidate);
    END IF;
    candidate := candidate + step;
  END LOOP;
  IF cardinality(free) = 0 THEN
    RETURN NULL;
  END IF;
  -- A random one of the code_choices() smallest; if another create is claiming it, the next free one.
  first := 1 + (rand[1] % least(cardinality(free), code_choices()))::integer;
  FOR i IN 0 .. cardinality(free) - 1 LOOP
    pick := free[1 + ((first - 1 + i) % cardinality(free))];
    IF pg_try_advisory_xact_lock(hashtextextended(scope || ':' || (amount_requested + pick), 6)) THEN
      RETURN pick;
    END IF;
  END LOOP;
  -- Every free code is being claimed by another create right now: take the drawn one; the unique
  -- index decides, and the loser draws again.
  RETURN free[first];
END;
$$;
