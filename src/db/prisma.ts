import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { retryOnConflict } from './errors.js';

export type { PrismaClient };
export type Tx = Prisma.TransactionClient;
export type Db = PrismaClient | Tx;

/**
 * Prisma over the process's shared pool (src/db/pool.ts). Interactive transactions wait up to 15 s for a connection (bursts of concurrent writes queue on
 * the pool rather than fail) and may run 30 s.
 */
export function createPrisma(pool: pg.Pool): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg(pool),
    transactionOptions: { maxWait: 15_000, timeout: 30_000 },
  });
}

/**
 * One interactive transaction for a decision, run again from the start when Postgres aborts it to
 * break a deadlock (two decisions, or a decision and a sweep, locking rows in opposite orders):
 * a caller never sees a deadlock, and nothing half-applied survives.
 */
export function decisionTransaction<T>(prisma: PrismaClient, run: (tx: Tx) => Promise<T>): Promise<T> {
  return retryOnConflict(() => prisma.$transaction(run));
}
