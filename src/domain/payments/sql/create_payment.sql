-- The create hot path in one call (issue 12): the payment, its hold, its fee reservation and the
-- card's stamp in one statement, so the card's lock is held for that statement only and a create
-- costs one round trip (src/domain/payments/store/create.ts calls it). Its expiry needs nothing
-- here: the deadline is the row's expires_at, which the expiry sweep reads through
-- payments_pending_expiry_idx (jobs/expire-due.ts).
--
-- Rules owned here, and nowhere else:
--   card choice   active cards of the project, least recently used first, those whose device is
--                 online (sandbox: any), first the scopes nobody is allocating in, then the busy
--                 ones; a card moved since it was listed is skipped, and so is a scope whose codes
--                 for the amount are all held; every refusal reason reported
--   card caps     today's (Tehran calendar day, by creation) pending + confirmed amountFinal sum and
--                 count against the card's daily_amount_cap / daily_count_cap, and this Jalali
--                 month's (Tehran) against monthly_amount_cap / monthly_count_cap (null = none)
-- Rules it calls, owned by their concern:
--   match scope and the locks match_scope, match_scope_lock_key (shared: card moves wait),
--                             card_lock_key (a card's caps and code draw)  src/domain/cards/sql/match_scope.sql
--   device online             device_online                      src/domain/devices/sql/device_online.sql
--   code step and code draw   code_step, draw_code               src/domain/codes/sql/draw_code.sql
--   the Jalali month          jalali_month_start                 src/domain/cards/sql/jalali_month.sql
--   the fee's amount          payment_fee                        src/domain/credit/sql/payment_fee.sql
--   the fee's reservation     credit_reserve, credit_available   src/domain/credit/sql/credit_stripes.sql
-- Every invariant stays in the versioned migrations: the unique index over live holds, the CHECKs
-- and the deferred money triggers run on these writes exactly as on any other.

-- With the card's scope lock held: the day's and the month's caps and a free code on this card, or
-- why not (the first cap that refuses: the day's before the month's, counts before amounts).
CREATE OR REPLACE FUNCTION payment_claim_code(
  card_id uuid, listed_device_id uuid, scope text, amount_requested bigint, max_code integer,
  day_amount_cap bigint, day_count_cap integer, month_amount_cap bigint, month_count_cap integer, rand bigint[],
  OUT code integer, OUT reason text
) LANGUAGE plpgsql AS $$
DECLARE
  current_device uuid;
  day_start constant timestamptz := date_trunc('day', now() AT TIME ZONE 'Asia/Tehran') AT TIME ZONE 'Asia/Tehran';
  monthly constant boolean := month_amount_cap IS NOT NULL OR month_count_cap IS NOT NULL;
  day_spent bigint := 0;
  day_counted bigint := 0;
  month_spent bigint := 0;
  month_counted bigint := 0;
  since timestamptz;
  final_amount bigint;
BEGIN
  SELECT c.device_id INTO current_device FROM cards c WHERE c.id = card_id FOR SHARE;
  IF NOT FOUND OR current_device IS DISTINCT FROM listed_device_id THEN
    reason := 'device_offline';
    RETURN;
  END IF;
  IF day_amount_cap IS NOT NULL OR day_count_cap IS NOT NULL OR monthly THEN
    -- One read of the card's payments since the earlier of the two starts (a month starts at a midnight).
    since := CASE WHEN monthly THEN jalali_month_start(now()) ELSE day_start END;
    SELECT coalesce(sum(p.amount_final) FILTER (WHERE p.created_at >= day_start), 0), count(*) FILTER (WHERE p.created_at >= day_start),
           coalesce(sum(p.amount_final), 0), count(*)
      INTO day_spent, day_counted, month_spent, month_counted
      FROM payments p
     WHERE p.card_id = payment_claim_code.card_id AND p.status IN ('pending', 'confirmed')
       AND p.created_at >= since;
    IF day_count_cap IS NOT NULL AND day_counted >= day_count_cap THEN
      reason := 'daily_count_cap_reached';
      RETURN;
    END IF;
    IF month_count_cap IS NOT NULL AND month_counted >= month_count_cap THEN
      reason := 'monthly_count_cap_reached';
      RETURN;
    END IF;
  END IF;
  code := draw_code(scope, amount_requested, max_code, rand);
  IF code IS NULL THEN
    reason := 'codes_exhausted';
    RETURN;
  END IF;
  final_amount := amount_requested + code;
  IF day_amount_cap IS NOT NULL AND day_spent + final_amount > day_amount_cap THEN
    code := NULL;
    reason := 'daily_amount_cap_reached';
  ELSIF month_amount_cap IS NOT NULL AND month_spent + final_amount > month_amount_cap THEN
    code := NULL;
    reason := 'monthly_amount_cap_reached';
  END IF;
END;
$$;

-- The whole create. Errors the caller turns into the catalog: GW402 merchant_credit_exhausted, GW422
-- callback_host_not_allowed (DETAIL: the allowed hosts, JSON), GW503 no_card_available (DETAIL:
-- the reasons, comma-separated). `amount_requested` is rials, `currency` the unit the caller sent it
-- in (kept on the payment). `online_ms` is DEVICE_OFFLINE_SECONDS in milliseconds, `rand` the
-- code draws (src/domain/codes/codes.ts).
CREATE OR REPLACE FUNCTION create_payment(
  payment_id uuid, project_id uuid, link_id uuid, amount_requested bigint, currency text, callback_url text, callback_host text,
  order_id text, description text, payer_phone text, metadata json, token text, online_ms integer, rand bigint[]
) RETURNS payments LANGUAGE plpgsql AS $$
DECLARE
  pr projects%ROWTYPE;
  candidate record;
  busy uuid[] := '{}';
  -- Scopes whose codes for this amount are all held: every card there would answer the same.
  exhausted text[] := '{}';
  reasons text[] := '{}';
  claimed record;
  chosen_card uuid;
  chosen_scope text;
  fee bigint := 0;
  stripe smallint;
  created timestamptz;
  result payments%ROWTYPE;
  waiting boolean;
BEGIN
  SELECT * INTO STRICT pr FROM projects p WHERE p.id = create_payment.project_id;
  IF callback_host IS NOT NULL AND cardinality(pr.allowed_callback_hosts) > 0 AND NOT callback_host = ANY (pr.allowed_callback_hosts) THEN
    RAISE EXCEPTION 'callback host not allowed' USING ERRCODE = 'GW422', DETAIL = to_json(pr.allowed_callback_hosts)::text;
  END IF;
  -- The smallest fee this payment can cost: with the smallest code.
  IF NOT pr.sandbox AND credit_available(pr.merchant_id) < payment_fee(amount_requested + code_step(), pr.fee_bps, pr.fee_min, pr.fee_max) THEN
    RAISE EXCEPTION 'merchant credit exhausted' USING ERRCODE = 'GW402';
  END IF;

  -- Pass 1 tries each eligible card's scope without waiting; pass 2 waits for the busy ones.
  FOREACH waiting IN ARRAY ARRAY[false, true] LOOP
    FOR candidate IN
      SELECT c.id, c.device_id, c.daily_amount_cap, c.daily_count_cap, c.monthly_amount_cap, c.monthly_count_cap,
             device_online(d.last_heartbeat_at, d.revoked_at, online_ms) AS online,
             match_scope(c.id, c.device_id) AS scope
        FROM cards c LEFT JOIN devices d ON d.id = c.device_id
       WHERE c.project_id = create_payment.project_id AND c.active AND (NOT waiting OR c.id = ANY (busy))
       ORDER BY c.last_used_at ASC NULLS FIRST, c.created_at ASC, c.id ASC
    LOOP
      -- Codes are drawn per scope, so a scope found exhausted is not tried again on another of its
      -- cards: nor locked (a create holding one card of a phone while waiting for another, against a
      -- create doing the same the other way round, was a deadlock, a second lost, and a retry).
      IF candidate.scope = ANY (exhausted) THEN
        CONTINUE;
      END IF;
      -- A card without a device has no device seen: offline.
      IF NOT pr.sandbox AND NOT candidate.online THEN
        IF NOT 'device_offline' = ANY (reasons) THEN reasons := array_append(reasons, 'device_offline'); END IF;
        CONTINUE;
      END IF;
      -- The card's own lock (its caps and its code draw), and its scope's shared lock (no card move
      -- meanwhile). Creates on other cards of the phone go on: two of them drawing one amount meet
      -- at the unique index over live holds (amount_holds_live_uq), and the caller draws again.
      IF waiting THEN
        PERFORM pg_advisory_xact_lock_shared(match_scope_lock_key(candidate.scope));
        PERFORM pg_advisory_xact_lock(card_lock_key(candidate.id));
      ELSIF NOT (pg_try_advisory_xact_lock_shared(match_scope_lock_key(candidate.scope)) AND pg_try_advisory_xact_lock(card_lock_key(candidate.id))) THEN
        busy := array_append(busy, candidate.id);
        CONTINUE;
      END IF;
      SELECT * INTO claimed FROM payment_claim_code(candidate.id, candidate.device_id, candidate.scope, amount_requested,
                                                    pr.max_code, candidate.daily_amount_cap, candidate.daily_count_cap,
                                                    candidate.monthly_amount_cap, candidate.monthly_count_cap, rand);
      IF claimed.code IS NOT NULL THEN
        chosen_card := candidate.id;
        chosen_scope := candidate.scope;
        EXIT;
      END IF;
      IF NOT claimed.reason = ANY (reasons) THEN reasons := array_append(reasons, claimed.reason); END IF;
      IF claimed.reason = 'codes_exhausted' THEN exhausted := array_append(exhausted, candidate.scope); END IF;
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
    -- On one of the merchant's credit stripes: concurrent creates never reserve more than the balance.
    stripe := credit_reserve(pr.merchant_id, fee);
  END IF;

  -- Stamped after the card's lock, so payments of one card are stamped in the order they commit.
  created := date_trunc('milliseconds', clock_timestamp());
  INSERT INTO payments (id, project_id, merchant_id, card_id, link_id, amount_requested, currency, code, amount_final, amount_mode,
                        order_id, description, callback_url, token, expires_at, late_until, payer_phone, metadata, sandbox,
                        fee_amount, fee_state, fee_stripe, created_at, updated_at)
  VALUES (payment_id, pr.id, pr.merchant_id, chosen_card, link_id, amount_requested, currency, claimed.code, amount_requested + claimed.code,
          pr.amount_mode, order_id, description, callback_url, token,
          created + pr.payment_time_limit_seconds * interval '1 second',
          created + (pr.payment_time_limit_seconds + pr.late_window_seconds) * interval '1 second',
          payer_phone, metadata, pr.sandbox, fee, CASE WHEN pr.sandbox THEN 'none' ELSE 'reserved' END, stripe, created, created)
  RETURNING * INTO result;
  INSERT INTO amount_holds (payment_id, scope, amount, held_until, created_at)
  VALUES (payment_id, chosen_scope, result.amount_final, result.late_until, created);
  UPDATE cards c SET last_used_at = created, updated_at = created WHERE c.id = chosen_card;
  RETURN result;
END;
$$;
