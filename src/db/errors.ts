import { Prisma } from '../generated/prisma/client.js';

type PgLikeError = { code?: string; constraint?: string; message?: string };

/** The Postgres error behind a Prisma or node-postgres error, if there is one. */
function pgError(err: unknown): PgLikeError | undefined {
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    const meta = err.meta as { driverAdapterError?: { cause?: { originalCode?: string; constraint?: { index?: string } } } } | undefined;
    const cause = meta?.driverAdapterError?.cause;
    if (err.code === 'P2002') return { code: '23505', constraint: cause?.constraint?.index };
    if (err.code === 'P2003') return { code: '23503' };
    if (err.code === 'P2034') return { code: '40001' };
    return cause?.originalCode ? { code: cause.originalCode } : undefined;
  }
  if (typeof err === 'object' && err !== null && typeof (err as PgLikeError).code === 'string') {
    return err as PgLikeError;
  }
  return undefined;
}

export function isUniqueViolation(err: unknown): boolean {
  return pgError(err)?.code === '23505';
}

export function isSerializationFailure(err: unknown): boolean {
  const code = pgError(err)?.code;
  return code === '40001' || code === '40P01';
}

/**
 * Runs a transaction again when Postgres aborted it to break a deadlock or a serialization
 * conflict (the work is redone from the start, so nothing half-applied survives).
 */
export async function retryOnConflict<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt < attempts && isSerializationFailure(err)) continue;
      throw err;
    }
  }
}
