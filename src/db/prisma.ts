import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { retryEndedSession, retryOnConflict } from './errors.js';
import { endedSessionAttempts } from './pool.js';

export type { PrismaClient };
export type Tx = Prisma.TransactionClient;
export type Db = PrismaClient | Tx;

/**
 * Prisma over the process's shared pool (src/db/pool.ts). Interactive transactions wait up to 15 s for a connection (bursts of concurrent writes queue on
 * the pool rather than fail) and may run 30 s.
 */
export function createPrisma(pool: pg.Pool): PrismaClient {
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool),
    transactionOptions: { maxWait: 15_000, timeout: 30_000 },
  });
  retryEndedTransactions(prisma, endedSessionAttempts(pool));
  return prisma;
}

/**
 * An interactive `$transaction(async (tx) => …)` runs again from BEGIN when the server ended its
 * session before it committed (`isSessionEndedUncommitted`: a pooled connection ended while idle,
 * a failover), as `inTransaction` does for the typed SQL; its callbacks only touch the database.
 * The array form is passed through untouched (its queries cannot be sent twice).
 */
function retryEndedTransactions(prisma: PrismaClient, attempts: number): void {
  const begin = prisma.$transaction.bind(prisma) as (arg: unknown, options?: unknown) => Promise<unknown>;
  const retrying = (arg: unknown, options?: unknown): Promise<unknown> =>
    typeof arg === 'function' ? retryEndedSession(attempts, () => begin(arg, options)) : begin(arg, options);
  Object.defineProperty(prisma, '$transaction', { value: retrying, configurable: true, writable: true });
}

/**
 * One interactive transaction for a decision, run again from the start when Postgres aborts it to
 * break a deadlock (two decisions, or a decision and a sweep, locking rows in opposite orders):
 * a caller never sees a deadlock, and nothing half-applied survives.
 */
export function decisionTransaction<T>(prisma: PrismaClient, run: (tx: Tx) => Promise<T>): Promise<T> {
  return retryOnConflict(() => prisma.$transaction(run));
}
