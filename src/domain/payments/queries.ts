import { z } from 'zod';
import { listOfProject, paymentOfProject } from './store/reads.js';
import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { callerScope, scopeWhere } from '../auth/scope.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
import { paymentFilterSchema, paymentFilterWhere } from './list-filter.js';
import type { PaymentRow } from './types.js';

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

/** REST's list: every filter of the list (the same as GraphQL's), and its pages. */
export const listPaymentsSchema = paymentFilterSchema.extend({
  page: positiveInt().default(1),
  pageSize: positiveInt(100).default(20),
});

/** Newest first; ties broken by id so pages never overlap. */
export const paymentOrder: Prisma.PaymentOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/**
 * The caller's payments matching a filter (validated here, for REST and GraphQL alike): a project
 * key its project's, a merchant credential all of its projects' or one's (`projectId`).
 */
export function paymentsFilteredFor(actor: Actor, filter: unknown, projectId?: string | null): Prisma.PaymentWhereInput {
  const scope = callerScope(actor, projectId);
  return { AND: [scopeWhere(scope), paymentFilterWhere(parseInput(paymentFilterSchema, filter))] };
}

/** A page of the caller's payments and the total, in one statement (the same filters as GraphQL's, the order of `paymentOrder`). */
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
