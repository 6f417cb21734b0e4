import type { Deps } from '../deps.js';
import { expirePayment } from './expiry.js';

/**
 * Every pending payment past its deadline, expired `concurrency` at a time (each through
 * `expirePayment`, its own transaction). The sweep's catch-up after a restart or a lost queue: one
 * by one, a backlog of a thousand would take longer than the contract's 5 s.
 */
export async function expireDuePayments(deps: Deps, opts: { limit?: number; concurrency?: number } = {}): Promise<number> {
  const due = await deps.prisma.payment.findMany({
    where: { status: 'pending', expiresAt: { lte: new Date() } },
    select: { id: true },
    orderBy: { expiresAt: 'asc' },
    take: opts.limit ?? 2_000,
  });
  let next = 0;
  let expired = 0;
  const lane = async () => {
    while (next < due.length) {
      const { id } = due[next++]!;
      if (await expirePayment(deps, id)) expired++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 8) }, lane));
  return expired;
}
