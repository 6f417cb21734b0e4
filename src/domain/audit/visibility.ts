import type { Prisma } from '../../generated/prisma/client.js';
import type { Actor } from '../auth/actor.js';
import { callerScope, scopeWhere } from '../auth/scope.js';
import { uuidSchema } from '../validation.js';

/**
 * The events a caller may read (the caller's scope, `callerScope`): a project key its project's, a
 * merchant credential all of the merchant's (merchant-wide ones too: devices, credit, merchant
 * keys), or one project's with `projectId`. A project or subject outside the scope, or an id that
 * is not a UUID, gives an empty list, exactly like one with no events.
 */
export function visibleAuditEvents(actor: Actor, filter: { projectId?: string | null; subjectId?: string | null }): Prisma.AuditEventWhereInput {
  const scope = callerScope(actor, filter.projectId);
  const { subjectId } = filter;
  if (scope.none || (subjectId && !uuidSchema.safeParse(subjectId).success)) return { id: { in: [] } };
  return { ...scopeWhere(scope), ...(subjectId ? { subjectId } : {}) };
}
