import type { Tx } from '../db/prisma.js';
import { AppError } from '../errors.js';
import type { Actor } from '../domain/auth/actor.js';
import { callerScope } from '../domain/auth/scope.js';
import { lockPayment, type LockedPayment } from '../domain/payments/transitions.js';
import { uuidSchema } from '../domain/validation.js';

/**
 * The payment a decision is about, locked with the database's clock: one the caller may decide on
 * (`callerScope`). Any other id, malformed or outside the scope, is not found, exactly like one that
 * does not exist.
 */
export function lockDecidedPayment(tx: Tx, actor: Actor, id: string): Promise<LockedPayment> {
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Payment');
  return lockPayment(tx, id, callerScope(actor));
}
