-- Unique codes (CONTRACT "Payments", unique_code): the code step and the code draw, defined here
-- only. The create function (src/domain/payments/sql/create_payment.sql) calls draw_code with its
-- card's scope lock held; the number of draws is set by the caller, `codeDraws()` in
-- src/domain/codes/codes.ts. The CHECK on payments.code (migration init) states the step again as
-- the database's last line.

-- A code is a multiple of this many rials, so a toman display of a whole-toman request stays whole.
CREATE OR REPLACE FUNCTION code_step() RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT 10 $$;

-- A free code in code_step()..code_step()×max_code for `amount_requested` in `scope`, or null when
-- every one is held. `rand` holds crypto-random numbers from the caller: each but the last is a
-- draw of a uniformly random code, taken unless a live hold has its amount (a hold past its late
-- window is released and its amount reused), so the code is uniform over the free ones; when every
-- such draw was taken, the free codes are listed and the last number picks one.
CREATE OR REPLACE FUNCTION draw_code(scope text, amount_requested bigint, max_code integer, rand bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  step constant integer := code_step();
  draws constant integer := array_length(rand, 1);
  held_until_at timestamptz;
  candidate integer;
  free_count integer;
  code integer;
BEGIN
  FOR i IN 1..draws - 1 LOOP
    candidate := step * (1 + (rand[i] % max_code)::integer);
    SELECT h.held_until INTO held_until_at FROM amount_holds h
     WHERE h.scope = draw_code.scope AND h.amount = amount_requested + candidate AND h.released_at IS NULL;
    IF NOT FOUND THEN
      RETURN candidate;
    END IF;
    IF held_until_at <= now() THEN
      UPDATE amount_holds h SET released_at = now()
       WHERE h.scope = draw_code.scope AND h.amount = amount_requested + candidate AND h.released_at IS NULL;
      RETURN candidate;
    END IF;
  END LOOP;
  UPDATE amount_holds h SET released_at = now()
   WHERE h.scope = draw_code.scope AND h.released_at IS NULL AND h.held_until <= now()
     AND h.amount BETWEEN amount_requested + step AND amount_requested + step * max_code;
  SELECT max_code - count(*) INTO free_count FROM amount_holds h
   WHERE h.scope = draw_code.scope AND h.released_at IS NULL
     AND h.amount BETWEEN amount_requested + step AND amount_requested + step * max_code AND (h.amount - amount_requested) % step = 0;
  IF free_count <= 0 THEN
    RETURN NULL;
  END IF;
  SELECT s.c INTO code FROM generate_series(step, step * max_code, step) AS s(c)
   WHERE NOT EXISTS (SELECT 1 FROM amount_holds h WHERE h.scope = draw_code.scope AND h.released_at IS NULL AND h.amount = amount_requested + s.c)
   ORDER BY s.c OFFSET (rand[draws] % free_count) LIMIT 1;
  RETURN code;
END;
$$;
