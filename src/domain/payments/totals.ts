import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';

/** A filtered payment list's size and sums, all pages (schema.graphql `PaymentConnection`). Rials. */
export type PaymentTotals = { count: number; amountFinal: bigint; netReceived: bigint };

/** One aggregate over the payments `where` selects (the list's own filter and scope). */
export async function paymentTotals(db: Pick<PrismaClient, 'payment'>, where: Prisma.PaymentWhereInput): Promise<PaymentTotals> {
  const r = await db.payment.aggregate({ where, _count: { _all: true }, _sum: { amountFinal: true, amountReceived: true, refundedAmount: true } });
  return {
    count: r._count._all,
    amountFinal: r._sum.amountFinal ?? 0n,
    netReceived: (r._sum.amountReceived ?? 0n) - (r._sum.refundedAmount ?? 0n),
  };
}
