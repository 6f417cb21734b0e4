import { decisionTransaction, type Tx } from '../db/prisma.js';
import { AppError } from '../errors.js';
import { requireActor, type Actor } from '../domain/auth/actor.js';
import { callerScope, requireDecider } from '../domain/auth/scope.js';
import { recordAudit, type AuditVia } from '../domain/audit/audit.js';
import type { Deps } from '../domain/deps.js';
import { keyScope, underKey, type Answer, type Idempotent } from '../domain/payments/idempotency.js';
import { parseInput } from '../domain/validation.js';
import type { Operation, RawInput, Who } from './operation.js';

/**
 * The one runner of every decision (docs/architecture.md "Operations"). In order: who may run it
 * (401/403 before anything is read), the input (400 `invalid_request`, by `parseInput`), then one
 * transaction (`decisionTransaction`): the idempotency key claimed in its key space (a replay
 * answers the stored answer, a clash is 409 `idempotency_conflict`), `load` (the locks), `check`
 * (a refusal is thrown as its catalog error), `write`, the audit events with the actor and the
 * door's `via`, and the door's answer stored with the key. A serialization failure or a deadlock
 * runs the whole transaction again from the key's claim, so a retried decision takes effect once;
 * nothing inside an operation retries by itself.
 */
export function runOperation<I, L, R>(deps: Deps, op: Operation<I, L, R>, actor: Actor, raw: RawInput, opts: { via: AuditVia; idem?: undefined }): Promise<R>;
export function runOperation<I, L, R>(deps: Deps, op: Operation<I, L, R>, actor: Actor, raw: RawInput, opts: { via: AuditVia; idem: Idempotent<R> | undefined }): Promise<R | Answer>;
export function runOperation<I, L, R>(deps: Deps, op: Operation<I, L, R>, actor: Actor, raw: RawInput, opts: { via: AuditVia; idem?: Idempotent<R> }): Promise<R | Answer> {
  authorize(op.who, actor);
  const input = parseInput(op.input, raw.body);
  const id = raw.id ?? '';
  const decideIn = async (tx: Tx): Promise<R> => {
    const loaded = await op.load(tx, { actor, id, input, deps });
    const refused = op.check(loaded, input);
    if (refused) throw new AppError(refused.code, refused.message, refused.details);
    const { result, audit } = await op.write(tx, loaded, input, deps);
    for (const event of audit) await recordAudit(tx, actor, event, opts.via);
    return result;
  };
  const { idem } = opts;
  if (!idem) return decisionTransaction(deps.prisma, decideIn);
  return decisionTransaction(deps.prisma, async (tx) => {
    const space = op.keySpace ? await op.keySpace(tx, id) : keyScope(actor);
    return underKey(tx, space, idem, () => decideIn(tx));
  });
}

/** 401 for a credential of the wrong kind, 403 for a role that may not (or must set up two-factor first). */
function authorize(who: Who, actor: Actor): void {
  switch (who) {
    case 'decider':
      callerScope(actor);
      requireDecider(actor);
      return;
    case 'sandbox':
      if (!requireActor(actor, 'project').sandbox) throw new AppError('sandbox_only');
      return;
    case 'payer':
      return;
  }
}
