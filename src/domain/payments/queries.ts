import { z } from 'zod';
import { listOfProject, paymentOfProject } from './store/reads.js';
import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { callerScope, scopeWhere, type CallerScope } from '../auth/scope.js';
import type { Deps } from '../deps.js';
import { amountSchema } from '../banking/currency.js';
import { cardLast4Schema, parseInput, uuidSchema } from '../validation.js';
import { PAYMENT_STATUSES, type PaymentRow } from './types.js';

const dateTime = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).transform((s) => new Date(s));
const positiveInt = (max?: number) =>
  z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : /^[0-9]{1,9}$/.test(v) ? Number(v) : NaN;
      if (!Number.isInteger(n) || n < 1 || (max !== undefined && n > max)) {
        ctx.addIssue({ code: 'custom', message: max ? `must be an integer from 1 to ${max}` : 'must be a positive integer' });
        return z.NEVER;
      }
      return n;
    });

export const paymentFilterSchema = z.object({
  status: z.enum(PAYMENT_STATUSES, { message: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  orderId: z.string().min(1).max(64).optional(),
  from: dateTime.optional(),
  to: dateTime.optional(),
  /** Only payments flagged (or not) for the merchant's review. */
  reviewRequired: z.boolean().optional(),
  /** true: the payer reported paying and the payment is not confirmed ("reported paying, nothing came"); false: no report. */
  reported: z.boolean().optional(),
  /** Payments whose final or requested amount is this many rials. */
  amount: amountSchema.optional(),
  /** Payments to a card ending in these digits, or from a payer's card ending in them. */
  cardLast4: cardLast4Schema.optional(),
});

/** REST's list: the filters of its one-statement query (the review, amount and card filters are GraphQL's). */
export const listPaymentsSchema = paymentFilterSchema.omit({ reviewRequired: true, reported: true, amount: true, cardLast4: true }).extend({
  page: positiveInt().default(1),
  pageSize: positiveInt(100).default(20),
});

export type PaymentFilter = z.output<typeof paymentFilterSchema>;

/** The filter as a Prisma where, always scoped to the caller. `from`/`to` are inclusive. */
function paymentWhere(scope: CallerScope, f: PaymentFilter): Prisma.PaymentWhereInput {
  const reported: Prisma.PaymentWhereInput =
    f.reported === true ? { payerReportedPaidAt: { not: null }, status: { not: 'confirmed' } } : f.reported === false ? { payerReportedPaidAt: null } : {};
  const amount: Prisma.PaymentWhereInput = f.amount !== undefined ? { OR: [{ amountFinal: f.amount }, { amountRequested: f.amount }] } : {};
  const card: Prisma.PaymentWhereInput = f.cardLast4 ? { OR: [{ card: { cardNumber: { endsWith: f.cardLast4 } } }, { payerCardLast4: f.cardLast4 }] } : {};
  return {
    AND: [scopeWhere(scope), reported, amount, card],
    ...(f.reviewRequired !== undefined ? { reviewRequired: f.reviewRequired } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.orderId ? { orderId: f.orderId } : {}),
    ...(f.from || f.to ? { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lte: f.to } : {}) } } : {}),
  };
}

/** Newest first; ties broken by id so pages never overlap. */
export const paymentOrder: Prisma.PaymentOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/**
 * The caller's payments matching a filter (validated here, for REST and GraphQL alike): a project
 * key its project's, a merchant credential all of its projects' or one's (`projectId`).
 */
export function paymentsFilteredFor(actor: Actor, filter: unknown, projectId?: string | null): Prisma.PaymentWhereInput {
  return paymentWhere(callerScope(actor, projectId), parseInput(paymentFilterSchema, filter));
}

/** A page of the caller's payments and the total, in one statement (the same filter and order as `paymentWhere`/`paymentOrder`). */
export async function listPayments(deps: Deps, actor: Actor, query: unknown) {
  const { projectId } = requireActor(actor, 'project');
  const q = parseInput(listPaymentsSchema, query);
  const { items, total } = await listOfProject(deps.pool, projectId, q, (q.page - 1) * q.pageSize, q.pageSize);
  return { items, page: q.page, pageSize: q.pageSize, total };
}

/**
 * A payment the caller can see (its project's; a merchant credential's, any of its projects');
 * any other id (foreign, unknown, not a UUID) is 404. One indexed read.
 */
export async function getPayment(deps: Deps, actor: Actor, id: string): Promise<PaymentRow> {
  const scope = callerScope(actor);
  let payment: PaymentRow | null | undefined;
  if (!uuidSchema.safeParse(id).success) payment = null;
  else if (actor.kind === 'project') payment = await paymentOfProject(deps.pool, id, actor.projectId);
  else payment = await deps.prisma.payment.findFirst({ where: { id, ...scopeWhere(scope) } });
  if (!payment) throw AppError.notFound('Payment');
  return payment;
}
