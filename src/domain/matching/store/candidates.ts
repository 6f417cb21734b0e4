import type { PrismaClient } from '../../../db/prisma.js';
import { CANDIDATE_WINDOW_MS, depositAmountFilter, paymentAmountFilter } from '../candidates.js';
import { CREATED_BEFORE_SLACK_MS } from '../decide-match.js';

/**
 * The rows candidates are chosen from (candidates.ts decides which and in what order). Same
 * merchant; for a real deposit, live payments on cards of the phone that forwarded it; for a
 * simulated one, sandbox payments of its project; created at most 48 h before the deposit's bank
 * time (and not after it, give or take the matching engine's clock slack).
 */

export type PaymentCandidateRow = { id: string; projectId: string; status: string; amountFinal: bigint; amountRequested: bigint; createdAt: Date };
export type MessageCandidateRow = { id: string; amount: bigint; at: Date; status: string };

/** Payments not confirmed that an unresolved deposit could be. */
export async function paymentsNearDeposit(
  db: PrismaClient,
  deposit: { merchantId: string; deviceId: string | null; projectId: string | null; simulated: boolean; amount: bigint; at: Date },
): Promise<PaymentCandidateRow[]> {
  const { min, max, slips } = paymentAmountFilter(deposit.amount);
  const since = new Date(deposit.at.getTime() - CANDIDATE_WINDOW_MS);
  const until = new Date(deposit.at.getTime() + CREATED_BEFORE_SLACK_MS);
  const rows = await db.$queryRaw<{ id: string; project_id: string; status: string; amount_final: bigint; amount_requested: bigint; created_at: Date }[]>`
    SELECT p.id, p.project_id, p.status, p.amount_final, p.amount_requested, p.created_at
    FROM payments p JOIN cards c ON c.id = p.card_id
    WHERE p.merchant_id = ${deposit.merchantId}::uuid
      AND p.status IN ('pending', 'expired', 'canceled')
      AND p.sandbox = ${deposit.simulated}
      AND CASE WHEN ${deposit.simulated} THEN p.project_id = ${deposit.projectId}::uuid ELSE c.device_id = ${deposit.deviceId}::uuid END
      AND p.created_at BETWEEN ${since} AND ${until}
      AND (p.amount_final BETWEEN ${min} AND ${max} OR p.amount_requested BETWEEN ${min} AND ${max}
           OR p.amount_final = ANY(${slips}::bigint[]) OR p.amount_requested = ANY(${slips}::bigint[]))
    ORDER BY p.created_at DESC
    LIMIT 200`;
  return rows.map((r) => ({ id: r.id, projectId: r.project_id, status: r.status, amountFinal: r.amount_final, amountRequested: r.amount_requested, createdAt: r.created_at }));
}

/** Unresolved deposits that could be a payment's money. */
export async function depositsNearPayment(
  db: PrismaClient,
  payment: { merchantId: string; projectId: string; deviceId: string | null; sandbox: boolean; amountFinal: bigint; amountRequested: bigint; createdAt: Date },
): Promise<MessageCandidateRow[]> {
  const { min, max, slips } = depositAmountFilter(payment);
  const from = new Date(payment.createdAt.getTime() - CREATED_BEFORE_SLACK_MS);
  const to = new Date(payment.createdAt.getTime() + CANDIDATE_WINDOW_MS);
  const rows = await db.$queryRaw<{ id: string; amount: bigint; at: Date; status: string }[]>`
    SELECT m.id, m.amount, coalesce(m.bank_time, m.received_at) AS at, m.status
    FROM bank_messages m
    WHERE m.merchant_id = ${payment.merchantId}::uuid
      AND m.status IN ('unmatched', 'needs_review') AND m.direction = 'deposit'
      AND m.simulated = ${payment.sandbox}
      AND CASE WHEN ${payment.sandbox} THEN m.project_id = ${payment.projectId}::uuid ELSE m.device_id = ${payment.deviceId}::uuid END
      AND coalesce(m.bank_time, m.received_at) BETWEEN ${from} AND ${to}
      AND (m.amount BETWEEN ${min} AND ${max} OR m.amount = ANY(${slips}::bigint[]))
    ORDER BY coalesce(m.bank_time, m.received_at)
    LIMIT 200`;
  return rows;
}
