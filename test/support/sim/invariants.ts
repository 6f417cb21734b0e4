import pg from 'pg';

/** The simulation's forgers: a personal number, and balances no real account of the world reaches. */
export const FORGER = '+989121234567';
export const FORGED_BALANCE_FLOOR = 90_000_000_000n;

/**
 * The money invariants, checked in SQL on one consistent snapshot (REPEATABLE READ): every query
 * returns the rows that break its rule, so an empty result everywhere means the state is sound.
 */
const CHECKS: Record<string, string> = {
  'a payment confirmed twice, or confirmed without its event': `
    SELECT p.id FROM payments p
    LEFT JOIN events e ON e.payment_id = p.id AND e.type = 'payment.confirmed'
    GROUP BY p.id, p.status HAVING count(e.id) <> (CASE WHEN p.status = 'confirmed' THEN 1 ELSE 0 END)`,
  'a message confirming two payments': `
    SELECT confirmed_by_message_id FROM payments WHERE confirmed_by_message_id IS NOT NULL
    GROUP BY 1 HAVING count(*) > 1`,
  // The late SMS of a resolved balance gap is matched to the payment the gap confirmed (it is that payment's money).
  'a matched message whose payment it did not confirm': `
    SELECT m.id FROM bank_messages m LEFT JOIN payments p ON p.id = m.payment_id
    WHERE m.status = 'matched' AND (p.status IS DISTINCT FROM 'confirmed' OR (p.confirmed_by_message_id IS DISTINCT FROM m.id
      AND NOT EXISTS (SELECT 1 FROM balance_gaps g WHERE g.resolved_payment_id = p.id AND g.explained_by_message_id = m.id)))`,
  'a balance gap that confirmed a payment not of its amount, not by hand, or not confirmed': `
    SELECT g.id FROM balance_gaps g JOIN payments p ON p.id = g.resolved_payment_id
    WHERE p.status <> 'confirmed' OR p.confirmation_source <> 'manual' OR p.amount_received <> g.amount OR p.sandbox OR g.amount <= 0`,
  'a gap that confirmed a payment without the merchant’s decision (a gap never confirms by itself)': `
    SELECT g.id FROM balance_gaps g WHERE g.resolved_payment_id IS NOT NULL
      AND (SELECT count(*) FROM audit_events a WHERE a.subject_id = g.id AND a.action = 'balance_gap.resolved') <> 1`,
  // A gap is dismissed by its own decision, or with its end message when the merchant dismissed or
  // refunded that message: audited on the gap either way, once.
  'a gap decided otherwise than the audit log says': `
    SELECT g.id FROM balance_gaps g WHERE g.status = 'dismissed'
      AND (g.decision_note IS NULL OR (SELECT count(*) FROM audit_events a WHERE a.subject_id = g.id AND a.action = 'balance_gap.dismissed') <> 1)`,
  'an open gap whose amount is not its end’s balance before its movement less its start’s balance, or whose start is no trusted balance': `
    SELECT g.id FROM balance_gaps g JOIN bank_messages t ON t.id = g.to_message_id LEFT JOIN bank_messages f ON f.id = g.from_message_id
    WHERE g.status = 'open' AND (
      g.amount <> t.balance - CASE t.direction WHEN 'deposit' THEN t.amount ELSE -t.amount END - g.from_balance
      OR t.balance <> g.to_balance OR t.card_id <> g.card_id
      OR (f.id IS NOT NULL AND (NOT f.trusted OR f.balance <> g.from_balance OR f.card_id <> g.card_id)))`,
  'an open gap that a late SMS has explained (its end now follows a trusted balance after the gap’s start)': `
    SELECT g.id FROM balance_gaps g JOIN bank_messages t ON t.id = g.to_message_id
    WHERE g.status = 'open' AND t.trusted AND EXISTS (
      SELECT 1 FROM bank_messages l WHERE l.card_id = t.card_id AND l.trusted AND l.id <> t.id AND l.id IS DISTINCT FROM g.from_message_id
        AND coalesce(l.bank_time, l.received_at) <= coalesce(t.bank_time, t.received_at)
        AND t.balance = l.balance + CASE t.direction WHEN 'deposit' THEN t.amount WHEN 'withdrawal' THEN -t.amount END)`,
  'a held message waiting behind a gap with no gap open for it (money lost without a gap)': `
    SELECT t.id FROM bank_messages t
    WHERE t.card_id IS NOT NULL AND NOT t.trusted AND t.evidence_problem = 'balance_mismatch' AND t.duplicate_of_id IS NULL AND NOT t.simulated
      AND t.amount IS NOT NULL AND t.balance IS NOT NULL AND t.status NOT IN ('dismissed', 'refunded', 'received')
      AND NOT EXISTS (SELECT 1 FROM balance_gaps g WHERE g.card_id = t.card_id AND g.to_at = coalesce(t.bank_time, t.received_at) AND g.to_balance = t.balance)
      AND NOT EXISTS (SELECT 1 FROM bank_messages o WHERE o.card_id = t.card_id AND o.id <> t.id AND NOT o.trusted AND o.evidence_problem = 'balance_mismatch'
        AND coalesce(o.bank_time, o.received_at) <= coalesce(t.bank_time, t.received_at)
        AND t.balance = o.balance + CASE t.direction WHEN 'deposit' THEN t.amount WHEN 'withdrawal' THEN -t.amount END)`,
  'a payment confirmed by a deposit of another amount or another card': `
    SELECT p.id FROM payments p JOIN bank_messages m ON m.id = p.confirmed_by_message_id
    WHERE p.confirmation_source = 'auto_sms' AND (m.amount IS DISTINCT FROM p.amount_final OR m.card_id IS DISTINCT FROM p.card_id)`,
  'two open payments with one amount among the cards one device forwards for': `
    SELECT c.device_id, p.amount_final FROM payments p JOIN cards c ON c.id = p.card_id
    WHERE p.late_until > now() AND c.device_id IS NOT NULL
    GROUP BY 1, 2 HAVING count(*) > 1`,
  'two live holds with one amount in one scope, or a live hold outside its card’s scope': `
    SELECT h.payment_id FROM amount_holds h JOIN payments p ON p.id = h.payment_id JOIN cards c ON c.id = p.card_id
    WHERE h.released_at IS NULL
      AND (h.scope <> CASE WHEN c.device_id IS NULL THEN 'card:' || c.id ELSE 'device:' || c.device_id END
           OR EXISTS (SELECT 1 FROM amount_holds o WHERE o.scope = h.scope AND o.amount = h.amount AND o.released_at IS NULL AND o.payment_id <> h.payment_id))`,
  'a live fee in a state its payment does not allow': `
    SELECT id FROM payments WHERE NOT sandbox AND NOT (
         (fee_state = 'reserved' AND status IN ('pending', 'expired'))
      OR (fee_state = 'debited' AND status = 'confirmed')
      OR (fee_state = 'released' AND (status IN ('canceled', 'rejected') OR (status = 'expired' AND late_until <= now()))))`,
  'a fee debited other than exactly once, of the payment’s fee': `
    SELECT p.id FROM payments p LEFT JOIN credit_ledger_entries l ON l.payment_id = p.id AND l.kind = 'fee'
    GROUP BY p.id, p.fee_state, p.fee_amount, p.sandbox
    HAVING count(l.id) <> (CASE WHEN p.fee_state = 'debited' AND p.fee_amount > 0 THEN 1 ELSE 0 END)
        OR coalesce(-sum(l.amount), 0) <> (CASE WHEN p.fee_state = 'debited' THEN p.fee_amount ELSE 0 END)`,
  'a merchant whose balance is not its ledger': `
    SELECT m.id FROM merchants m
    WHERE m.credit_balance <> (SELECT coalesce(sum(amount), 0) FROM credit_ledger_entries l WHERE l.merchant_id = m.id)`,
  'a credit stripe whose reserved credit is not the sum of the reserved fees on it': `
    SELECT p.merchant_id, p.fee_stripe FROM payments p WHERE NOT p.sandbox AND p.fee_state = 'reserved'
      AND NOT EXISTS (SELECT 1 FROM credit_stripes s WHERE s.merchant_id = p.merchant_id AND s.stripe = p.fee_stripe)
    UNION ALL
    SELECT s.merchant_id, s.stripe FROM credit_stripes s
    WHERE s.reserved <> (SELECT coalesce(sum(p.fee_amount), 0) FROM payments p
                          WHERE p.merchant_id = s.merchant_id AND p.fee_stripe = s.stripe AND NOT p.sandbox AND p.fee_state = 'reserved')`,
  // A free lease is credit a create may reserve without the merchant's row: never more than available.
  'a merchant whose stripes may reserve more than its available credit': `
    SELECT m.id FROM merchants m JOIN credit_stripes s ON s.merchant_id = m.id
    GROUP BY m.id, m.credit_balance
    HAVING sum(s.lease - s.reserved) > greatest(0, m.credit_balance - sum(s.reserved))`,
  'a sandbox payment confirmed by a real message, or a live one by a simulation': `
    SELECT p.id FROM payments p JOIN bank_messages m ON m.id = p.confirmed_by_message_id WHERE m.simulated <> p.sandbox`,
  'one deposit (card, amount, resulting balance) confirming two payments': `
    SELECT m.card_id, m.amount, m.balance FROM payments p JOIN bank_messages m ON m.id = p.confirmed_by_message_id
    WHERE p.confirmation_source = 'auto_sms' AND NOT m.simulated AND m.balance IS NOT NULL
    GROUP BY 1, 2, 3 HAVING count(*) > 1`,
  'a payment confirmed by itself on a forged message': `
    SELECT p.id FROM payments p JOIN bank_messages m ON m.id = p.confirmed_by_message_id
    WHERE p.confirmation_source = 'auto_sms' AND (m.sender = '${FORGER}' OR m.balance >= ${FORGED_BALANCE_FLOOR} OR (NOT m.simulated AND m.balance IS NULL))`,
  // A held message the merchant confirmed by hand is trusted by the merchant's word (decided_at set;
  // the schedule's merchant confirms at random, a real one after checking the bank): not the engine's.
  'a forged message trusted as evidence by the engine': `
    SELECT m.id, m.card_id, m.sender, m.balance::text, m.bank_time, m.received_at, m.created_at, m.status, m.account_hint,
      (SELECT json_agg(json_build_object('id', o.id, 'balance', o.balance::text, 'bank_time', o.bank_time, 'received_at', o.received_at, 'created_at', o.created_at, 'trusted', o.trusted, 'status', o.status) ORDER BY o.created_at)
         FROM bank_messages o WHERE o.card_id = m.card_id) AS card_history
    FROM bank_messages m WHERE m.trusted AND m.decided_at IS NULL AND (m.sender = '${FORGER}' OR m.balance >= ${FORGED_BALANCE_FLOOR} OR m.balance IS NULL)`,
  'a sandbox payment with a fee': `SELECT id FROM payments WHERE sandbox AND (fee_state <> 'none' OR fee_amount <> 0)`,
  'a payment confirmed after its late window, other than by the merchant marked late': `
    SELECT id FROM payments WHERE (confirmed_at > late_until) <> confirmed_late OR (confirmed_late AND confirmation_source <> 'manual')`,
  'refunds above what was received, or a refunded sum that is not the refunds’': `
    SELECT p.id FROM payments p
    WHERE p.refunded_amount > coalesce(p.amount_received, 0)
       OR p.refunded_amount <> (SELECT coalesce(sum(f.amount), 0) FROM refunds f WHERE f.payment_id = p.id)`,
  'a confirmed payment without what it received, or an automatic one that received other than its deposit': `
    SELECT p.id FROM payments p LEFT JOIN bank_messages m ON m.id = p.confirmed_by_message_id
    WHERE (p.status = 'confirmed') <> (p.amount_received IS NOT NULL)
       OR (p.confirmed_by_message_id IS NOT NULL AND p.amount_received IS DISTINCT FROM m.amount)`,
  'a deposit both refunded and confirming a payment, or refunded twice': `
    SELECT m.id FROM bank_messages m
    WHERE (m.status = 'refunded' AND EXISTS (SELECT 1 FROM payments p WHERE p.confirmed_by_message_id = m.id))
       OR (SELECT count(*) FROM refunds f WHERE f.bank_message_id = m.id AND f.payment_id IS NULL) > 1
       OR (m.status = 'refunded') <> EXISTS (SELECT 1 FROM refunds f WHERE f.bank_message_id = m.id AND f.payment_id IS NULL)`,
  'a final state without its event': `
    SELECT p.id FROM payments p WHERE p.status <> 'pending' AND NOT EXISTS (SELECT 1 FROM events e WHERE e.payment_id = p.id AND e.type = 'payment.' || p.status)
    UNION ALL
    SELECT p.id FROM payments p WHERE p.expired_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM events e WHERE e.payment_id = p.id AND e.type = 'payment.expired')`,
  'an event without its webhook delivery': `
    SELECT e.id FROM events e JOIN webhook_endpoints w ON w.project_id = e.project_id AND e.type = ANY(w.events)
    WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.endpoint_id = w.id)`,
};

export async function findViolations(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const broken: string[] = [];
    for (const [rule, sql] of Object.entries(CHECKS)) {
      const { rows } = await client.query(sql);
      if (rows.length > 0) broken.push(`${rule}: ${JSON.stringify(rows.slice(0, 5))}`);
    }
    await client.query('COMMIT');
    return broken;
  } finally {
    await client.end();
  }
}
