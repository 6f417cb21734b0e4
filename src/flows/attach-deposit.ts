import { z } from 'zod';
import type { Tx } from '../db/prisma.js';
import { AppError } from '../errors.js';
import type { Actor } from '../domain/auth/actor.js';
import { callerScope, requireDecider } from '../domain/auth/scope.js';
import { lockVisibleMessage } from '../domain/bank-messages/decisions.js';
import { trustMessage } from '../domain/bank-messages/store/evidence.js';
import { recordAudit } from '../domain/audit/audit.js';
import type { Deps } from '../domain/deps.js';
import { attachRefusal } from '../domain/matching/decide-attach.js';
import { releaseReviewFlags } from '../domain/matching/review-flags.js';
import { auditPaymentDecision } from '../domain/payments/decision-audit.js';
import { decide, type Answer, type Idempotent } from '../domain/payments/idempotency.js';
import { applyTransition, lockPayment } from '../domain/payments/transitions.js';
import type { PaymentRow } from '../domain/payments/types.js';
import { parseInput, uuidSchema } from '../domain/validation.js';

/**
 * Attach (CONTRACT "Exceptions"): the merchant says "this deposit is this payment's money". One
 * transaction: the message locked (the caller must see it), the payment locked (the caller's
 * scope), `attachRefusal` decides, the `attach` transition confirms it (`confirmedLate` after its
 * late window, the fee charged, again if it had been released), the message becomes `matched`
 * (and, held for its balance, the card's new chain reference), and the audit log names who did it.
 */

const attachInput = z.object({
  messageId: z.string(),
  paymentId: z.string(),
  acceptAmount: z.boolean().nullish(),
  note: z.string().trim().max(500, 'must be at most 500 characters').nullish(),
});

export type Attached = { payment: PaymentRow; messageId: string };

export async function attachBankMessage(deps: Deps, actor: Actor, input: unknown): Promise<Attached>;
export async function attachBankMessage(deps: Deps, actor: Actor, input: unknown, idem: Idempotent<Attached> | undefined): Promise<Attached | Answer>;
export async function attachBankMessage(deps: Deps, actor: Actor, input: unknown, idem?: Idempotent<Attached>): Promise<Attached | Answer> {
  const scope = callerScope(actor);
  requireDecider(actor);
  const data = parseInput(attachInput, input);
  if (!uuidSchema.safeParse(data.messageId).success) throw AppError.notFound('Bank message');
  if (!uuidSchema.safeParse(data.paymentId).success) throw AppError.notFound('Payment');
  return decide(deps, actor, idem, async (tx) => {
    const message = await lockVisibleMessage(tx, actor, data.messageId);
    const payment = await lockPayment(tx, data.paymentId, scope);
    const refused = attachRefusal(message, payment, data.acceptAmount ?? false);
    if (refused) throw new AppError(refused.code, refused.message, refused.details);
    const note = data.note ?? null;
    // Other payments' rows before the merchant's (the fee): every transaction locks payments first.
    await releaseReviewFlags(tx, message, payment.id);
    const confirmed = await applyTransition(
      tx,
      deps.jobs,
      payment,
      'attach',
      { confirmationSource: 'manual', confirmedByMessageId: message.id, manualNote: note, reviewRequired: false, reviewReason: null },
      message.amount!,
    );
    await markAttached(tx, message, confirmed, note);
    await auditPaymentDecision(tx, actor, 'payment.deposit_attached', payment, confirmed, note);
    await recordAudit(tx, actor, {
      action: 'bank_message.attached',
      subjectType: 'bank_message',
      subjectId: message.id,
      projectId: confirmed.projectId,
      note,
      changes: { status: { from: message.status, to: 'matched' }, paymentId: { from: message.paymentId, to: confirmed.id } },
    });
    return { payment: confirmed, messageId: message.id };
  });
}

async function markAttached(
  tx: Tx,
  message: { id: string; cardId: string | null; evidenceProblem: string | null },
  payment: PaymentRow,
  note: string | null,
) {
  await tx.bankMessage.update({
    where: { id: message.id },
    data: {
      status: 'matched',
      statusReason: `Attached by the merchant to payment ${payment.id}.`,
      reviewReason: null,
      paymentId: payment.id,
      projectId: payment.projectId,
      cardId: message.cardId ?? payment.cardId,
      decisionNote: note,
      decidedAt: new Date(),
    },
  });
  // A deposit held for its balance that the merchant attaches is the card's new chain reference.
  if (message.evidenceProblem === 'balance_mismatch') await trustMessage(tx, message.id);
}
