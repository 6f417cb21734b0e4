-- Unique codes (CONTRACT "Payments", unique_code): the code step and the code draw, defined here
-- only. The create function (src/domain/payments/sql/create_payment.sql) calls draw_code with its
-- card's scope lock held; the random number it draws with comes from the caller, `codeDraws()` in
-- src/domain/codes/codes.ts. The CHECK on payments.code (migration init) states the step again as
-- the database's last line, and the unique index over live holds keeps two payers of one scope
-- from ever sharing an amount, whatever this function picks.

-- A code is a multiple of this many rials, so a toman display of a whole-toman request stays whole.
CREATE OR REPLACE FUNCTION code_step() RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT 10 $$;

-- How many of the smallest free codes a draw chooses among: few enough that codes stay small (tens
-- of rials while few payments share an amount), enough that the next payer's code is not predictable.
CREATE OR REPLACE FUNCTION code_choices() RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT 10 $$;

-- A free code in code_step()..code_step()×max_code for `amount_requested` in `scope`, or null when
-- every one is held: one of the code_choices() smallest free codes, picked by rand[1] (a
-- crypto-random number from the caller), each with the same chance. A hold past its late window is
-- released first, so its amount is free again.
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
BEGIN
  UPDATE amount_holds h SET released_at = now()
   WHERE h.scope = draw_code.scope AND h.released_at IS NULL AND h.held_until <= now() AND h.amount BETWEEN lowest AND highest;
  SELECT coalesce(array_agg(h.amount - amount_requested ORDER BY h.amount), '{}') INTO held FROM amount_holds h
   WHERE h.scope = draw_code.scope AND h.released_at IS NULL AND h.amount BETWEEN lowest AND highest
     AND (h.amount - amount_requested) % step = 0;
  -- Up from the smallest code, past the held ones, until enough free ones are found.
  WHILE cardinality(free) < code_choices() AND candidate <= step * max_code LOOP
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
  RETURN free[1 + (rand[1] % cardinality(free))::integer];
END;
$$;
