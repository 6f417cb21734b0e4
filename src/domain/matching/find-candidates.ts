import type { BankMessage, Payment } from '../../generated/prisma/client.js';
import { ATTACHABLE_MESSAGE_STATUSES } from './decide-attach.js';
import { candidateReason, rankCandidates, type CandidateReason } from './candidates.js';
import { depositsNearPayment, paymentsNearDeposit } from './store/candidates.js';
import type { PrismaClient } from '../../db/prisma.js';

export type PaymentCandidate = { paymentId: string; reason: CandidateReason };
export type MessageCandidate = { bankMessageId: string; reason: CandidateReason };

const depositTime = (m: Pick<BankMessage, 'bankTime' | 'receivedAt'>) => m.bankTime ?? m.receivedAt;

/** The payments an unresolved deposit could be, best first (none for anything else). */
type UnresolvedDeposit = Pick<BankMessage, 'direction' | 'amount' | 'status' | 'bankTime' | 'receivedAt' | 'merchantId' | 'deviceId' | 'projectId' | 'simulated'>;
type OpenPayment = Pick<Payment, 'status' | 'cardId' | 'merchantId' | 'projectId' | 'sandbox' | 'amountFinal' | 'amountRequested' | 'createdAt'>;

export async function candidatesForMessage(db: PrismaClient, m: UnresolvedDeposit): Promise<PaymentCandidate[]> {
  if (m.direction !== 'deposit' || m.amount === null || !(ATTACHABLE_MESSAGE_STATUSES as readonly string[]).includes(m.status)) return [];
  const at = depositTime(m);
  const rows = await paymentsNearDeposit(db, { merchantId: m.merchantId, deviceId: m.deviceId, projectId: m.projectId, simulated: m.simulated, amount: m.amount, at });
  const scored = rows.flatMap((p) => {
    const reason = candidateReason(m.amount!, p);
    return reason ? [{ id: p.id, reason, distanceMs: Math.abs(at.getTime() - p.createdAt.getTime()) }] : [];
  });
  return rankCandidates(scored).map((c) => ({ paymentId: c.id, reason: c.reason }));
}

/** The unresolved deposits that could be a payment's money, best first (none once it is confirmed). */
export async function candidatesForPayment(db: PrismaClient, p: OpenPayment): Promise<MessageCandidate[]> {
  if (p.status === 'confirmed' || p.status === 'rejected') return [];
  const card = await db.card.findUnique({ where: { id: p.cardId }, select: { deviceId: true } });
  const rows = await depositsNearPayment(db, { ...p, deviceId: card?.deviceId ?? null });
  const scored = rows.flatMap((m) => {
    const reason = candidateReason(m.amount, p);
    return reason ? [{ id: m.id, reason, distanceMs: Math.abs(m.at.getTime() - p.createdAt.getTime()) }] : [];
  });
  return rankCandidates(scored).map((c) => ({ bankMessageId: c.id, reason: c.reason }));
}
