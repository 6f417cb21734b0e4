import { inTransaction, type Queryable } from '../../db/statement.js';
import { z } from 'zod';
import { currencySchema, toRials, wholeAmountSchema } from '../banking/currency.js';
import { verifyOfProject } from './store/reads.js';
import { AppError } from '../../errors.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { keyScope, underKey, type Answer, type Idempotent } from './idempotency.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
import type { PaymentRow } from './types.js';

function paymentId(id: string): string {
  if (!uuidSchema.safeParse(id).success) throw AppError.notFound('Payment');
  return id;
}

/**
 * What verify may check: `amount` in `currency` (IRR by default, IRT = toman). Any whole amount is
 * taken, so that one outside the payment range is a mismatch (409) rather than a bad request.
 */
export const verifyInput = z.strictObject({
  amount: wholeAmountSchema.nullish(),
  currency: currencySchema.nullish(),
}).transform(({ amount, currency }) => ({ amount: amount == null ? null : toRials(amount, currency ?? 'IRR') }));

/**
 * Verify (docs/integration.md "5. Verify"): idempotent; every call counts; the first call that sees
 * the payment confirmed stamps `verifiedAt`. The row lock makes concurrent verifies agree on which
 * one was first. With an amount that is not the payment's `amountRequested` (in rials, after
 * conversion), 409 `amount_mismatch` and nothing is counted.
 */
export type Verification = { payment: PaymentRow; alreadyVerified: boolean };

export async function verifyPayment(deps: Deps, actor: Actor, id: string, input?: unknown): Promise<Verification>;
export async function verifyPayment(deps: Deps, actor: Actor, id: string, input: unknown, idem: Idempotent<Verification> | undefined): Promise<Verification | Answer>;
export async function verifyPayment(deps: Deps, actor: Actor, id: string, input?: unknown, idem?: Idempotent<Verification>): Promise<Verification | Answer> {
  const caller = requireActor(actor, 'project');
  const { amount } = parseInput(verifyInput, input ?? {});
  const verify = async (db: Queryable): Promise<Verification> => {
    const verified = await verifyOfProject(db, paymentId(id), caller.projectId, amount);
    if (!verified) throw AppError.notFound('Payment');
    if (verified.mismatch) {
      const details = { amountRequested: verified.mismatch.amountRequested.toString(), given: String(amount) };
      throw new AppError('amount_mismatch', `The amount given (${details.given} rials) is not the payment's amountRequested (${details.amountRequested} rials).`, details);
    }
    return verified;
  };
  // One statement: the locked update returns the row as it now is, no read-back. Under a key, the
  // count and the stored answer commit together (a replay is not counted again).
  if (!idem) return verify(deps.pool);
  return inTransaction(deps.pool, (client) => underKey(client, keyScope(caller), idem, () => verify(client)));
}
