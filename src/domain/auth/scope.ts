import type { Prisma } from '../../generated/prisma/client.js';
import { uuidSchema } from '../validation.js';
import { requireActor, type Actor } from './actor.js';
import { requireRole } from './roles.js';

/**
 * What a caller may read and decide on (docs/exceptions.md "14. Who may decide"): a project key its
 * own project; a merchant credential (the merchant key or a dashboard user, whatever the role)
 * every project of its merchant, or one of them (`projectId`). Anything outside is exactly like
 * something that does not exist. Deciding also needs `requireDecider`.
 */
export type CallerScope = { merchantId: string; projectId: string | null; none: boolean };

export function callerScope(actor: Actor, projectId?: string | null): CallerScope {
  const caller = requireActor(actor, 'merchant', 'project', 'user');
  const asked = projectId ?? null;
  // A project id that is not a UUID names no project: the scope holds nothing.
  const malformed = asked !== null && !uuidSchema.safeParse(asked).success;
  if (caller.kind === 'project') {
    return { merchantId: caller.merchantId, projectId: caller.projectId, none: malformed || (asked !== null && asked !== caller.projectId) };
  }
  return { merchantId: caller.merchantId, projectId: malformed ? null : asked, none: malformed };
}

/**
 * A decision on a payment or a deposit (attach, confirm by hand, reject, dismiss, refunds): keys
 * decide within their scope; a dashboard user only when the role allows it (owner, staff), else
 * 403 `forbidden`. Called by every decision function beside `callerScope`.
 */
export function requireDecider(actor: Actor): void {
  if (actor.kind === 'user') requireRole(actor, 'decide');
}

/** The scope as a Prisma filter on a table with `merchantId` and `projectId` columns. */
export function scopeWhere(scope: CallerScope): { merchantId: string; projectId?: string; id?: { in: [] } } {
  return {
    merchantId: scope.merchantId,
    ...(scope.projectId ? { projectId: scope.projectId } : {}),
    ...(scope.none ? { id: { in: [] } } : {}),
  };
}

export type PaymentScopeWhere = Prisma.PaymentWhereInput;
