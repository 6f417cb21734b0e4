import { z } from 'zod';
import { verifyOfProject } from './store/reads.js';
import { AppError } from '../../errors.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
import { settleReviewedMessage } from '../bank-messages/decisions.js';
import { applyTransition, lockPayment } from './transitions.js';
import type { PaymentRow } from './types.js';

function paymentId(id: string): string {
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Payment');
  return id;
}

/**
 * Verify (SPEC 3): idempotent; every call counts; the first call that sees the payment confirmed
 * stamps `verifiedAt`. The row lock makes concurrent verifies agree on which one was first.
 */
export async function verifyPayment(deps: Deps, actor: Actor, id: string): Promise<{ payment: PaymentRow; alreadyVerified: boolean }> {
  const { projectId } = requireActor(actor, 'project');
  // One statement: the locked update returns the row as it now is, no read-back.
  const verified = await verifyOfProject(deps.pool, paymentId(id), projectId);
  if (!verified) throw AppError.notFound('Payment');
  return verified;
}

const reasonSchema = z.string().trim().min(1, 'must be 1..300 characters').max(300, 'must be 1..300 characters');

/** Merchant's rejection: pending only; releases the reserved fee; event payment.rejected with the reason. */
export async function rejectPayment(deps: Deps, actor: Actor, id: string, reason: unknown): Promise<PaymentRow> {
  const { projectId } = requireActor(actor, 'project');
  const why = parseInput(z.object({ reason: reasonSchema }), { reason }).reason;
  return deps.prisma.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId(id), projectId);
    return applyTransition(tx, deps.jobs, payment, 'reject', { rejectReason: why });
  });
}

/**
 * The merchant's decision after review: confirms a pending payment, or an expired one inside its
 * late window (a late confirmation). `confirmationSource` is `manual`.
 */
export async function confirmPaymentManually(deps: Deps, actor: Actor, id: string, note?: unknown): Promise<PaymentRow> {
  const { projectId } = requireActor(actor, 'project');
  const checkedNote = parseInput(z.string().trim().max(500).nullish(), note);
  return deps.prisma.$transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId(id), projectId);
    const confirmed = await applyTransition(tx, deps.jobs, payment, 'confirm', {
      confirmationSource: 'manual',
      manualNote: checkedNote ?? null,
      reviewRequired: false,
      reviewReason: null,
    });
    const messageId = await settleReviewedMessage(tx, confirmed.id);
    if (!messageId) return confirmed;
    return tx.payment.update({ where: { id: confirmed.id }, data: { confirmedByMessageId: messageId } });
  });
}
