import { z } from 'zod';
import { listOfProject, paymentOfProject } from './store/reads.js';
import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
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
});

export const listPaymentsSchema = paymentFilterSchema.extend({
  page: positiveInt().default(1),
  pageSize: positiveInt(100).default(20),
});

export type PaymentFilter = z.output<typeof paymentFilterSchema>;

/** The filter as a Prisma where, always scoped to the caller's project. `from`/`to` are inclusive. */
function paymentWhere(projectId: string, f: PaymentFilter): Prisma.PaymentWhereInput {
  return {
    projectId,
    ...(f.status ? { status: f.status } : {}),
    ...(f.orderId ? { orderId: f.orderId } : {}),
    ...(f.from || f.to ? { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lte: f.to } : {}) } } : {}),
  };
}

/** Newest first; ties broken by id so pages never overlap. */
export const paymentOrder: Prisma.PaymentOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/** The caller's project's payments matching a filter (validated here, for REST and GraphQL alike). */
export function paymentsFilteredFor(actor: Actor, filter: unknown): Prisma.PaymentWhereInput {
  const { projectId } = requireActor(actor, 'project');
  return paymentWhere(projectId, parseInput(paymentFilterSchema, filter));
}

/** A page of the caller's payments and the total, in one statement (the same filter and order as `paymentWhere`/`paymentOrder`). */
export async function listPayments(deps: Deps, actor: Actor, query: unknown) {
  const { projectId } = requireActor(actor, 'project');
  const q = parseInput(listPaymentsSchema, query);
  const { items, total } = await listOfProject(deps.pool, projectId, q, (q.page - 1) * q.pageSize, q.pageSize);
  return { items, page: q.page, pageSize: q.pageSize, total };
}

/** A payment of the caller's project; any other id (foreign, unknown, not a UUID) is 404. One indexed read. */
export async function getPayment(deps: Deps, actor: Actor, id: string): Promise<PaymentRow> {
  const { projectId } = requireActor(actor, 'project');
  const payment = uuidSchema.safeParse(id).success ? await paymentOfProject(deps.pool, id, projectId) : undefined;
  if (!payment) throw AppError.notFound('Payment');
  return payment;
}
