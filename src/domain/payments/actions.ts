import { inTransaction, type Queryable } from '../../db/statement.js';
import { z } from 'zod';
import { currencySchema, toRials, wholeAmountSchema } from '../banking/currency.js';
import { verifyOfProject } from './store/reads.js';
import { AppError } from '../../errors.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { callerScope, requireDecider } from '../auth/scope.js';
import { auditPaymentDecision } from './decision-audit.js';
import { decide, keyScope, underKey, type Answer, type Idempotent } from './idempotency.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
import { reviewedDeposit, settleReviewedMessage } from '../bank-messages/decisions.js';
import { releaseReviewFlags } from '../matching/review-flags.js';
import { afterLateWindow } from './state-machine.js';
import { notifyPaymentChanged } from '../../events/payment-notifier.js';
import { applyTransition, lockPayment } from './transitions.js';
import type { PaymentRow } from './types.js';

function paymentId(id: string): string {
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Payment');
  return id;
}

/**
 * What verify may check: `amount` in `currency` (IRR by default, IRT = toman). Any whole amount is
 * taken, so that one outside the payment range is a mismatch (409) rather than a bad request.
 */
export const verifyInput = z.strictObject({
  amount: wholeAmountSchema.nullish(),
  currency: currencySchema.nullish(),
}).transform(({ amount, currency }) => ({ amount: amount == null ? null : toRials(amount, currency ?? 'IRR') }));

/**
 * Verify (SPEC 3): idempotent; every call counts; the first call that sees the payment confirmed
 * stamps `verifiedAt`. The row lock makes concurrent verifies agree on which one was first. With an
 * amount that is not the payment's `amountRequested` (in rials, after conversion), 409
 * `amount_mismatch` and nothing is counted.
 */
export type Verification = { payment: PaymentRow; alreadyVerified: boolean };

export async function verifyPayment(deps: Deps, actor: Actor, id: string, input?: unknown): Promise<Verification>;
export async function verifyPayment(deps: Deps, actor: Actor, id: string, input: unknown, idem: Idempotent<Verification> | undefined): Promise<Verification | Answer>;
export async function verifyPayment(deps: Deps, actor: Actor, id: string, input?: unknown, idem?: Idempotent<Verification>): Promise<Verification | Answer> {
  const caller = requireActor(actor, 'project');
  const { amount } = parseInput(verifyInput, input ?? {});
  const verify = async (db: Queryable): Promise<Verification> => {
    const verified = await verifyOfProject(db, paymentId(id), caller.projectId, amount);
    if (!verified) throw AppError.notFound('Payment');
    if (verified.mismatch) {
      const details = { amountRequested: verified.mismatch.amountRequested.toString(), given: String(amount) };
      throw new AppError('amount_mismatch', `The amount given (${details.given} rials) is not the payment's amountRequested (${details.amountRequested} rials).`, details);
    }
    return verified;
  };
  // One statement: the locked update returns the row as it now is, no read-back. Under a key, the
  // count and the stored answer commit together (a replay is not counted again).
  if (!idem) return verify(deps.pool);
  return inTransaction(deps.pool, (client) => underKey(client, keyScope(caller), idem, () => verify(client)));
}

const reasonSchema = z.string().trim().min(1, 'must be 1..300 characters').max(300, 'must be 1..300 characters');
const noteSchema = z.string().trim().max(500, 'must be at most 500 characters').nullish();

/**
 * Merchant's rejection: pending only; releases the reserved fee; event payment.rejected with the
 * reason. A project key rejects its own project's payments, a merchant credential any of its own.
 */
export async function rejectPayment(deps: Deps, actor: Actor, id: string, reason: unknown): Promise<PaymentRow>;
export async function rejectPayment(deps: Deps, actor: Actor, id: string, reason: unknown, idem: Idempotent<PaymentRow> | undefined): Promise<PaymentRow | Answer>;
export async function rejectPayment(deps: Deps, actor: Actor, id: string, reason: unknown, idem?: Idempotent<PaymentRow>): Promise<PaymentRow | Answer> {
  const scope = callerScope(actor);
  requireDecider(actor);
  const why = parseInput(z.object({ reason: reasonSchema }), { reason }).reason;
  return decide(deps, actor, idem, async (tx) => {
    const payment = await lockPayment(tx, paymentId(id), scope);
    const rejected = await applyTransition(tx, deps.jobs, payment, 'reject', { rejectReason: why });
    await auditPaymentDecision(tx, actor, 'payment.rejected', payment, rejected, why);
    return rejected;
  });
}

const confirmSchema = z
  .object({ note: noteSchema, late: z.boolean().nullish() })
  .refine((v) => !v.late || Boolean(v.note), { path: ['note'], message: 'is required with late: true (why the payment is confirmed after its late window)' });

/**
 * The merchant's decision after review: confirms a pending payment, or an expired one inside its
 * late window (`confirm`). With `late`, also an expired payment after its late window, for money
 * the merchant saw in the bank with no SMS at all (`confirm_late`: `confirmedLate`, the fee charged
 * again if it had been released). `confirmationSource` is `manual`. When exactly one deposit is
 * waiting on the payment for review, it becomes the confirming message and what was received.
 */
export async function confirmPaymentManually(deps: Deps, actor: Actor, id: string, note?: unknown, late?: unknown): Promise<PaymentRow>;
export async function confirmPaymentManually(deps: Deps, actor: Actor, id: string, note: unknown, late: unknown, idem: Idempotent<PaymentRow> | undefined): Promise<PaymentRow | Answer>;
export async function confirmPaymentManually(deps: Deps, actor: Actor, id: string, note?: unknown, late?: unknown, idem?: Idempotent<PaymentRow>): Promise<PaymentRow | Answer> {
  const scope = callerScope(actor);
  requireDecider(actor);
  const input = parseInput(confirmSchema, { note, late });
  return decide(deps, actor, idem, async (tx) => {
    const payment = await lockPayment(tx, paymentId(id), scope);
    if (!input.late && payment.status !== 'confirmed' && afterLateWindow(payment, payment.lockedAt)) {
      throw new AppError(
        'invalid_state',
        'Cannot confirm this payment: its late-confirmation window has ended. Confirm it with late: true and a note (money seen in the bank), or attach its deposit.',
        { status: payment.status },
      );
    }
    const waiting = await reviewedDeposit(tx, payment.id);
    // The other payments it flagged, before the confirmation takes the merchant's row (the fee).
    if (waiting) await releaseReviewFlags(tx, waiting, payment.id);
    const name = input.late && afterLateWindow(payment, payment.lockedAt) ? 'confirm_late' : 'confirm';
    const confirmed = await applyTransition(
      tx,
      deps.jobs,
      payment,
      name,
      { confirmationSource: 'manual', manualNote: input.note ?? null, reviewRequired: false, reviewReason: null, confirmedByMessageId: waiting?.id ?? null },
      waiting?.amount ?? undefined,
    );
    if (waiting) await settleReviewedMessage(tx, waiting, confirmed.id);
    await auditPaymentDecision(tx, actor, name === 'confirm_late' ? 'payment.confirmed_late' : 'payment.confirmed_manually', payment, confirmed, input.note ?? null);
    return confirmed;
  });
}

/**
 * The merchant's word that a flagged payment needs nothing more: a payer reported paying and
 * nothing came, or a held deposit turned out not to be this payment's. Clears the review on a
 * payment that is not confirmed; the payment's status does not change. Audited with the note.
 */
export async function dismissPaymentReview(deps: Deps, actor: Actor, id: string, note?: unknown): Promise<PaymentRow>;
export async function dismissPaymentReview(deps: Deps, actor: Actor, id: string, note: unknown, idem: Idempotent<PaymentRow> | undefined): Promise<PaymentRow | Answer>;
export async function dismissPaymentReview(deps: Deps, actor: Actor, id: string, note?: unknown, idem?: Idempotent<PaymentRow>): Promise<PaymentRow | Answer> {
  const scope = callerScope(actor);
  requireDecider(actor);
  const checkedNote = parseInput(noteSchema, note) ?? null;
  return decide(deps, actor, idem, async (tx) => {
    const payment = await lockPayment(tx, paymentId(id), scope);
    if (!payment.reviewRequired) throw new AppError('invalid_state', 'The payment is not flagged for review.', { status: payment.status });
    const cleared = await tx.payment.update({ where: { id: payment.id }, data: { reviewRequired: false, reviewReason: null } });
    await notifyPaymentChanged(tx, cleared);
    await auditPaymentDecision(tx, actor, 'payment.review_dismissed', payment, cleared, checkedNote);
    return cleared;
  });
}
