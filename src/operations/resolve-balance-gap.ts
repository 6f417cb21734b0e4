import { z } from 'zod';
import type { BalanceGap, BankMessage } from '../generated/prisma/client.js';
import { callerScope } from '../domain/auth/scope.js';
import { advanceChainPast, gapDecisionRefusal, gapPaymentRefusal, lockVisibleGap } from '../domain/bank-messages/gap-decisions.js';
import { gapCandidates } from '../domain/bank-messages/store/gaps.js';
import { paymentDecisionAudit } from '../domain/payments/decision-audit.js';
import { applyTransition, lockPayment, type LockedPayment } from '../domain/payments/transitions.js';
import { uuidSchema } from '../domain/validation.js';
import { AppError } from '../errors.js';
import { noteSchema } from './confirm-by-hand.js';
import type { Operation } from './operation.js';

const input = z
  .object({ paymentId: z.string().nullish(), note: noteSchema })
  .superRefine((v, ctx) => {
    if (!v.paymentId && !v.note) ctx.addIssue({ code: 'custom', path: ['note'], message: 'is required to dismiss a balance gap (no paymentId)' });
  });

type Loaded = { gap: BalanceGap; message: BankMessage; payment: LockedPayment | null; candidateIds: string[] };

/**
 * Resolve a balance gap (docs/exceptions.md "Lost messages: balance gaps"): "the missing money is
 * this payment's". The payment is confirmed by the `attach` transition (confirmationSource manual,
 * confirmedLate after its late window, the fee charged), the gap is its evidence and is marked
 * resolved with it; without a payment the gap is dismissed (a note required). Either way the held
 * message that revealed the gap becomes the chain's reference; a resolution also matches its own
 * payment if it has one, a dismissal leaves that to the merchant (gap-decisions.ts
 * `advanceChainPast`). A gap confirms at most one payment: the gap row is locked, decided once, and
 * its payment is unique among gaps (`balance_gaps_one_per_payment`).
 */
export const resolveBalanceGap: Operation<z.output<typeof input>, Loaded, BalanceGap> = {
  name: 'resolve a balance gap',
  who: 'decider',
  input,
  emits: ['payment.expired', 'payment.review_required', 'payment.confirmed'],
  async load(tx, { actor, id, input: { paymentId } }) {
    const gap = await lockVisibleGap(tx, actor, id);
    const message = await tx.bankMessage.findUniqueOrThrow({ where: { id: gap.toMessageId } });
    if (!paymentId) return { gap, message, payment: null, candidateIds: [] };
    if (!uuidSchema.safeParse(paymentId).success) throw AppError.notFound('Payment');
    const payment = await lockPayment(tx, paymentId, callerScope(actor));
    const candidateIds = gap.status === 'open' ? (await gapCandidates(tx, gap, 100)).map((c) => c.id) : [];
    return { gap, message, payment, candidateIds };
  },
  check: ({ gap, payment, candidateIds }, { paymentId }) => {
    const refused = gapDecisionRefusal(gap, paymentId ?? null);
    if (refused === 'repeat') return null;
    if (refused) return refused;
    return payment ? gapPaymentRefusal(gap, payment, candidateIds) : null;
  },
  async write(tx, { gap, message, payment }, data, deps) {
    if (gapDecisionRefusal(gap, payment?.id ?? null) === 'repeat') return { result: gap, audit: [] };
    const note = data.note ?? null;
    const decided = { status: payment ? 'resolved' : 'dismissed', resolvedAt: new Date(), resolvedPaymentId: payment?.id ?? null, decisionNote: note };
    const audit = [];
    // The gap names its payment first: it is the evidence the payments guard asks of a canceled payment confirmed by hand.
    const updated = await tx.balanceGap.update({ where: { id: gap.id }, data: decided });
    if (payment) {
      const confirmed = await applyTransition(
        tx,
        deps.jobs,
        payment,
        'attach',
        { confirmationSource: 'manual', manualNote: note ?? `Balance gap ${gap.id}.`, reviewRequired: false, reviewReason: null },
        gap.amount,
      );
      audit.push(paymentDecisionAudit('payment.gap_resolved', payment, confirmed, note));
    }
    await advanceChainPast(tx, deps.jobs, updated, message, payment !== null);
    audit.push({
      action: payment ? ('balance_gap.resolved' as const) : ('balance_gap.dismissed' as const),
      subjectType: 'balance_gap' as const,
      subjectId: gap.id,
      projectId: gap.projectId,
      note,
      changes: { status: { from: gap.status, to: decided.status }, resolvedPaymentId: { from: null, to: decided.resolvedPaymentId } },
    });
    return { result: await tx.balanceGap.findUniqueOrThrow({ where: { id: gap.id } }), audit };
  },
};
