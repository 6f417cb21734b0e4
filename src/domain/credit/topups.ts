import { z } from 'zod';
import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import { recordAudit, systemActor } from '../audit/audit.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { checkAmountRange, currencySchema, toRials, wholeAmountSchema } from '../banking/currency.js';
import type { Deps } from '../deps.js';
import { createPaymentFor } from '../payments/create-payment.js';
import { checkoutUrl } from '../payments/fields.js';
import type { PaymentRow } from '../payments/types.js';
import { parseInput, uuidSchema } from '../validation.js';
import { recordLedgerEntry } from './ledger.js';
import { insertTopUp, lockUncreditedTopUp } from './store/topups.js';

/**
 * Fee credit bought through the gateway itself (docs/live-setup.md "2. Fee credit";
 * schema.graphql `createCreditTopUp`). The operator names the project that receives top-ups (CLI `operator topup-project`);
 * `createCreditTopUp` makes a payment on it for the merchant; the payment's confirmation, whatever
 * confirms it (a bank SMS, a simulated deposit, the operator by hand, an attach), adds its
 * amountRequested to the merchant's credit in the confirming transaction (`creditTopUpOnConfirm`,
 * called by applyTransition), exactly once: the top-up row is locked and marked, and the ledger's
 * unique index credit_ledger_one_topup_per_payment refuses a second `topup` entry for a payment.
 */

/** The refusal when no top-up project is named (or it was removed): the dashboard says to ask the operator. */
export const TOPUP_UNAVAILABLE = 'topup_unavailable';

const topUpInput = z
  .strictObject({ amount: wholeAmountSchema, currency: currencySchema.nullish().transform((c) => c ?? 'IRR') })
  .superRefine(checkAmountRange)
  .transform(({ amount, currency }) => ({ amount: toRials(amount, currency), currency }));

export type TopUpPayment = { id: string; checkoutUrl: string; amountFinal: bigint; amountRequested: bigint; expiresAt: Date; status: string };
export type CreditTopUpView = { payment: TopUpPayment; amount: bigint; credited: boolean; creditedAt: Date | null; createdAt: Date };

function paymentView(deps: Pick<Deps, 'config'>, p: Pick<PaymentRow, 'id' | 'token' | 'amountFinal' | 'amountRequested' | 'expiresAt' | 'status'>): TopUpPayment {
  return { id: p.id, checkoutUrl: checkoutUrl(deps.config.publicBaseUrl, p.token), amountFinal: p.amountFinal, amountRequested: p.amountRequested, expiresAt: p.expiresAt, status: p.status };
}

/** The top-up project, when the operator named one that still takes payments: its id and merchant. */
async function topUpProject(db: Pick<Deps, 'prisma'>['prisma'] | Tx): Promise<{ id: string; merchantId: string } | null> {
  const setting = await db.operatorSetting.findUnique({ where: { id: true } });
  if (!setting?.topupProjectId) return null;
  const project = await db.project.findUnique({ where: { id: setting.topupProjectId }, select: { id: true, merchantId: true, active: true, suspendedAt: true } });
  return project && project.active && !project.suspendedAt ? { id: project.id, merchantId: project.merchantId } : null;
}

/** Whether a merchant can buy credit now (the dashboard offers the form, or says to ask the operator). */
export async function creditTopUpAvailable(deps: Deps, actor: Actor): Promise<boolean> {
  const caller = requireActor(actor, 'merchant', 'user');
  const project = await topUpProject(deps.prisma);
  return project !== null && project.merchantId !== caller.merchantId;
}

/**
 * Owner or merchant key: a payment of `amount` on the operator's top-up project, for this merchant.
 * The payment and its top-up row are made in one transaction. No top-up project → 409
 * invalid_state with `details.reason` `topup_unavailable`.
 */
export async function createCreditTopUp(deps: Deps, actor: Actor, input: unknown): Promise<CreditTopUpView> {
  const caller = requireActor(actor, 'merchant');
  const data = parseInput(topUpInput, input);
  const project = await topUpProject(deps.prisma);
  // The operator's own merchant buys no credit from itself (its credit is the operator's CLI's business).
  if (!project || project.merchantId === caller.merchantId) {
    throw new AppError('invalid_state', 'Fee credit cannot be bought here yet: ask the operator to top your credit up.', { reason: TOPUP_UNAVAILABLE });
  }
  const merchant = await deps.prisma.merchant.findUniqueOrThrow({ where: { id: caller.merchantId }, select: { name: true } });
  const payment = await createPaymentFor(
    deps,
    { id: project.id },
    {
      amount: data.amount,
      currency: data.currency,
      callbackUrl: null,
      orderId: `topup-${caller.merchantId}`.slice(0, 64),
      description: `شارژ اعتبار کارمزد: ${merchant.name}`.slice(0, 300),
      payerPhone: null,
      metadata: { creditTopUpMerchantId: caller.merchantId },
    },
    { afterInsert: (db, p) => insertTopUp(db, p.id, caller.merchantId, p.amountRequested) },
  );
  return { payment: paymentView(deps, payment), amount: payment.amountRequested, credited: false, creditedAt: null, createdAt: payment.createdAt };
}

/** The merchant's top-ups, newest first (at most 50), each with its payment as it stands. */
export async function listCreditTopUps(deps: Deps, actor: Actor): Promise<CreditTopUpView[]> {
  const caller = requireActor(actor, 'merchant', 'user');
  const rows = await deps.prisma.creditTopUp.findMany({ where: { merchantId: caller.merchantId }, orderBy: [{ createdAt: 'desc' }, { paymentId: 'desc' }], take: 50 });
  const payments = await deps.prisma.payment.findMany({ where: { id: { in: rows.map((r) => r.paymentId) } } });
  const byId = new Map(payments.map((p) => [p.id, p]));
  return rows.flatMap((r) => {
    const p = byId.get(r.paymentId);
    return p ? [{ payment: paymentView(deps, p), amount: r.amount, credited: r.creditedAt !== null, creditedAt: r.creditedAt, createdAt: r.createdAt }] : [];
  });
}

/**
 * In the transaction that confirms a payment (applyTransition): when it is a top-up not yet
 * credited, the merchant's credit rises by its amountRequested (ledger `topup`, under the merchant's
 * row lock) and an audit event says so. The top-up row is locked first, so concurrent confirmations
 * (which the payment's own row lock already serialises) credit once; the ledger's unique index is
 * the last word.
 */
export async function creditTopUpOnConfirm(tx: Tx, payment: PaymentRow): Promise<void> {
  const merchantId = await lockUncreditedTopUp(tx, payment.id);
  if (!merchantId) return;
  const entry = await recordLedgerEntry(tx, { merchantId: merchantId, kind: 'topup', amount: payment.amountRequested, paymentId: payment.id, note: `top-up payment ${payment.id}` });
  await tx.creditTopUp.update({ where: { paymentId: payment.id }, data: { creditedAt: new Date(), ledgerEntryId: entry.id } });
  await recordAudit(tx, systemActor('fee credit top-up'), {
    action: 'merchant.credit_topped_up',
    subjectType: 'merchant',
    subjectId: merchantId,
    projectId: null,
    merchantId: merchantId,
    note: `top-up payment ${payment.id}`,
    changes: { creditBalance: { from: (entry.balanceAfter - payment.amountRequested).toString(), to: entry.balanceAfter.toString() } },
  });
}

/** Operator: names the project whose payments are top-ups (null: none; merchants are told to ask the operator). */
export async function setTopUpProject(deps: Deps, actor: Actor, projectId: string | null): Promise<{ projectId: string | null; merchantId: string | null }> {
  requireActor(actor, 'operator');
  if (projectId !== null) parseInput(uuidSchema, projectId);
  return deps.prisma.$transaction(async (tx) => {
    const project = projectId ? await tx.project.findUnique({ where: { id: projectId }, select: { id: true, merchantId: true, active: true } }) : null;
    if (projectId && !project) throw AppError.notFound('Project');
    const before = await tx.operatorSetting.findUnique({ where: { id: true } });
    await tx.operatorSetting.upsert({ where: { id: true }, create: { id: true, topupProjectId: projectId }, update: { topupProjectId: projectId, updatedAt: new Date() } });
    // In the log of the project that takes (or took) top-ups, with the operator as actor.
    const subject = project ?? (before?.topupProjectId ? await tx.project.findUnique({ where: { id: before.topupProjectId }, select: { id: true, merchantId: true } }) : null);
    if (subject && before?.topupProjectId !== projectId) {
      await recordAudit(tx, actor, {
        action: projectId ? 'project.topup_project_set' : 'project.topup_project_cleared',
        subjectType: 'project',
        subjectId: subject.id,
        projectId: subject.id,
        merchantId: subject.merchantId,
        changes: { topupProjectId: { from: before?.topupProjectId ?? null, to: projectId } },
      });
    }
    return { projectId, merchantId: project?.merchantId ?? null };
  });
}
