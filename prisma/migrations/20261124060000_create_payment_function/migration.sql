-- The create hot path in one call (issue 12): card choice, caps, a free random code, the hold, the
-- payment, the fee reservation, the card's stamp and the expiry job, in one statement, so the
-- match-scope lock is held for that statement only and a create costs one round trip. Every
-- invariant stays where it was: the unique index over live holds, the CHECKs and the deferred
-- money triggers run on these writes exactly as on any other.

-- `clamp(floor(amountFinal × bps / 10,000), min, max)`: the rule of src/domain/credit/fees.ts
-- `computeFee`, which test/perf/create-function.test.ts holds equal to this one.
CREATE FUNCTION payment_fee(amount_final bigint, bps integer, fee_min bigint, fee_max bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN raw < fee_min THEN fee_min WHEN raw > fee_max THEN fee_max ELSE raw END
  FROM (SELECT (amount_final * bps) / 10000 AS raw) r
$$;

-- With the card's scope lock held: today's caps and a free code on this card, or why not.
-- Codes are drawn from `rand` (crypto-random numbers from the caller): each draw is a uniformly
-- random code, taken unless a live hold has its amount (a hold past its late window is released
-- and its amount reused), so the code is uniform over the free ones; after eight taken draws the
-- free codes are listed and one is picked with the last number. A card moved to another device
-- since the candidates were listed is skipped: its holds now live in the other scope.
CREATE FUNCTION payment_claim_code(
  card_id uuid, listed_device_id uuid, scope text, amount_requested bigint, max_code integer,
  amount_cap bigint, count_cap integer, rand bigint[], OUT code integer, OUT reason text
) LANGUAGE plpgsql AS $$
DECLARE
  current_device uuid;
  spent bigint := 0;
  counted bigint := 0;
  held_until_at timestamptz;
  candidate integer;
  free_count integer;
BEGIN
  SELECT c.device_id INTO current_device FROM cards c WHERE c.id = card_id FOR SHARE;
  IF NOT FOUND OR current_device IS DISTINCT FROM listed_device_id THEN
    reason := 'device_offline';
    RETURN;
  END IF;
  IF amount_cap IS NOT NULL OR count_cap IS NOT NULL THEN
    SELECT coalesce(sum(p.amount_final), 0), count(*) INTO spent, counted FROM payments p
     WHERE p.card_id = payment_claim_code.card_id AND p.status IN ('pending', 'confirmed')
       AND p.created_at >= (date_trunc('day', now() AT TIME ZONE 'Asia/Tehran') AT TIME ZONE 'Asia/Tehran');
    IF count_cap IS NOT NULL AND counted >= count_cap THEN
      reason := 'daily_count_cap_reached';
      RETURN;
    END IF;
  END IF;
  FOR i IN 1..8 LOOP
    candidate := 10 * (1 + (rand[i] % max_code)::integer);
    SELECT h.held_until INTO held_until_at FROM amount_holds h
     WHERE h.scope = payment_claim_code.scope AND h.amount = amount_requested + candidate AND h.released_at IS NULL;
    IF NOT FOUND THEN
      code := candidate;
      EXIT;
    END IF;
    IF held_until_at <= now() THEN
      UPDATE amount_holds h SET released_at = now()
       WHERE h.scope = payment_claim_code.scope AND h.amount = amount_requested + candidate AND h.released_at IS NULL;
      code := candidate;
      EXIT;
    END IF;
  END LOOP;
  IF code IS NULL THEN
    UPDATE amount_holds h SET released_at = now()
     WHERE h.scope = payment_claim_code.scope AND h.released_at IS NULL AND h.held_until <= now()
       AND h.amount BETWEEN amount_requested + 10 AND amount_requested + 10 * max_code;
    SELECT max_code - count(*) INTO free_count FROM amount_holds h
     WHERE h.scope = payment_claim_code.scope AND h.released_at IS NULL
       AND h.amount BETWEEN amount_requested + 10 AND amount_requested + 10 * max_code AND (h.amount - amount_requested) % 10 = 0;
    IF free_count <= 0 THEN
      reason := 'codes_exhausted';
      RETURN;
    END IF;
    SELECT s.c INTO code FROM generate_series(10, 10 * max_code, 10) AS s(c)
     WHERE NOT EXISTS (SELECT 1 FROM amount_holds h WHERE h.scope = payment_claim_code.scope AND h.released_at IS NULL AND h.amount = amount_requested + s.c)
     ORDER BY s.c OFFSET (rand[9] % free_count) LIMIT 1;
  END IF;
  IF amount_cap IS NOT NULL AND spent + amount_requested + code > amount_cap THEN
    code := NULL;
    reason := 'daily_amount_cap_reached';
  END IF;
END;
$$;

-- pg-boss's own insert of an `expire-payment` job, its statement verbatim as its `send` builds it
-- for the queue (per-queue table, queue defaults, NOTIFY rule). pg-boss owns that SQL, so it is not
-- copied here: every API process installs it at first use (src/db/hot/expiry-job.ts), replacing
-- this placeholder only when pg-boss's statement differs. A PL/pgSQL body keeps its plan cached
-- per connection, which an EXECUTE of the text per create would not (about 0.3 ms each).
CREATE FUNCTION insert_expiry_job(payload text) RETURNS SETOF uuid LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert_expiry_job is installed by the service at first use';
END;
$$;

-- The whole create. Cards are tried least recently used first, first those whose scope nobody is
-- allocating in (try-lock), then the busy ones (waiting), so concurrent creates spread over cards.
-- Errors the caller turns into the catalog: GW402 merchant_credit_exhausted, GW422
-- callback_host_not_allowed (DETAIL: the allowed hosts, JSON), GW503 no_card_available (DETAIL:
-- the reasons, comma-separated). `job_payload` is pg-boss's payload of the expiry job as its `send`
-- builds it (src/db/hot/create.ts), inserted by pg-boss's own statement (insert_expiry_job, above):
-- the job commits with the payment.
CREATE FUNCTION create_payment(
  payment_id uuid, project_id uuid, link_id uuid, amount_requested bigint, callback_url text, callback_host text,
  order_id text, description text, payer_phone text, metadata json, token text, online_ms integer, rand bigint[],
  job_payload text
) RETURNS payments LANGUAGE plpgsql AS $$
DECLARE
  pr projects%ROWTYPE;
  candidate record;
  busy uuid[] := '{}';
  reasons text[] := '{}';
  claimed record;
  chosen_card uuid;
  chosen_scope text;
  fee bigint := 0;
  created timestamptz;
  result payments%ROWTYPE;
  waiting boolean;
BEGIN
  SELECT * INTO STRICT pr FROM projects p WHERE p.id = create_payment.project_id;
  IF callback_host IS NOT NULL AND cardinality(pr.allowed_callback_hosts) > 0 AND NOT callback_host = ANY (pr.allowed_callback_hosts) THEN
    RAISE EXCEPTION 'callback host not allowed' USING ERRCODE = 'GW422', DETAIL = to_json(pr.allowed_callback_hosts)::text;
  END IF;
  IF NOT pr.sandbox AND (SELECT m.credit_balance - m.credit_reserved FROM merchants m WHERE m.id = pr.merchant_id)
       < payment_fee(amount_requested + 10, pr.fee_bps, pr.fee_min, pr.fee_max) THEN
    RAISE EXCEPTION 'merchant credit exhausted' USING ERRCODE = 'GW402';
  END IF;

  -- Pass 1 tries each eligible card's scope without waiting; pass 2 waits for the busy ones.
  FOREACH waiting IN ARRAY ARRAY[false, true] LOOP
    FOR candidate IN
      SELECT c.id, c.device_id, c.daily_amount_cap, c.daily_count_cap, d.last_heartbeat_at, d.revoked_at,
             CASE WHEN c.device_id IS NULL THEN 'card:' || c.id ELSE 'device:' || c.device_id END AS scope
        FROM cards c LEFT JOIN devices d ON d.id = c.device_id
       WHERE c.project_id = create_payment.project_id AND c.active AND (NOT waiting OR c.id = ANY (busy))
       ORDER BY c.last_used_at ASC NULLS FIRST, c.created_at ASC, c.id ASC
    LOOP
      IF NOT pr.sandbox AND (candidate.device_id IS NULL OR candidate.revoked_at IS NOT NULL OR candidate.last_heartbeat_at IS NULL
                             OR now() - candidate.last_heartbeat_at > online_ms * interval '1 millisecond') THEN
        IF NOT 'device_offline' = ANY (reasons) THEN reasons := array_append(reasons, 'device_offline'); END IF;
        CONTINUE;
      END IF;
      IF waiting THEN
        PERFORM pg_advisory_xact_lock(hashtextextended(candidate.scope, 0));
      ELSIF NOT pg_try_advisory_xact_lock(hashtextextended(candidate.scope, 0)) THEN
        busy := array_append(busy, candidate.id);
        CONTINUE;
      END IF;
      SELECT * INTO claimed FROM payment_claim_code(candidate.id, candidate.device_id, candidate.scope, amount_requested,
                                                    pr.max_code, candidate.daily_amount_cap, candidate.daily_count_cap, rand);
      IF claimed.code IS NOT NULL THEN
        chosen_card := candidate.id;
        chosen_scope := candidate.scope;
        EXIT;
      END IF;
      IF NOT claimed.reason = ANY (reasons) THEN reasons := array_append(reasons, claimed.reason); END IF;
    END LOOP;
    EXIT WHEN chosen_card IS NOT NULL OR cardinality(busy) = 0;
  END LOOP;

  IF chosen_card IS NULL THEN
    IF NOT EXISTS (SELECT 1 FROM cards c WHERE c.project_id = create_payment.project_id AND c.active) THEN
      reasons := ARRAY['no_active_card'];
    END IF;
    -- Every reason that applied, in the order they were met.
    RAISE EXCEPTION 'no card available' USING ERRCODE = 'GW503', DETAIL = array_to_string(reasons, ',');
  END IF;

  IF NOT pr.sandbox THEN
    fee := payment_fee(amount_requested + claimed.code, pr.fee_bps, pr.fee_min, pr.fee_max);
    -- Checked on the locked merchant row: concurrent creates never reserve more than the balance.
    UPDATE merchants m SET credit_reserved = m.credit_reserved + fee, updated_at = now()
     WHERE m.id = pr.merchant_id AND m.credit_balance - m.credit_reserved >= fee;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'merchant credit exhausted' USING ERRCODE = 'GW402';
    END IF;
  END IF;

  -- Stamped after the scope lock, so payments of one scope are stamped in the order they commit.
  created := date_trunc('milliseconds', clock_timestamp());
  INSERT INTO payments (id, project_id, merchant_id, card_id, link_id, amount_requested, code, amount_final, amount_mode,
                        order_id, description, callback_url, token, expires_at, late_until, payer_phone, metadata, sandbox,
                        fee_amount, fee_state, created_at, updated_at)
  VALUES (payment_id, pr.id, pr.merchant_id, chosen_card, link_id, amount_requested, claimed.code, amount_requested + claimed.code,
          pr.amount_mode, order_id, description, callback_url, token,
          created + pr.payment_time_limit_seconds * interval '1 second',
          created + (pr.payment_time_limit_seconds + pr.late_window_seconds) * interval '1 second',
          payer_phone, metadata, pr.sandbox, fee, CASE WHEN pr.sandbox THEN 'none' ELSE 'reserved' END, created, created)
  RETURNING * INTO result;
  INSERT INTO amount_holds (payment_id, scope, amount, held_until, created_at)
  VALUES (payment_id, chosen_scope, result.amount_final, result.late_until, created);
  UPDATE cards c SET last_used_at = created, updated_at = created WHERE c.id = chosen_card;
  -- Due at the payment's expiry: the one field of pg-boss's payload set here (an ISO date-time,
  -- which its insert casts as it casts its own).
  PERFORM insert_expiry_job(jsonb_set(job_payload::jsonb, '{0,startAfter}', to_jsonb(result.expires_at))::text);
  RETURN result;
END;
$$;
