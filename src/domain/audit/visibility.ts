import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import type { Actor } from '../auth/actor.js';
import { callerScope, scopeWhere } from '../auth/scope.js';
import { uuidSchema } from '../validation.js';

/**
 * The events a caller may read (the caller's scope, `callerScope`): a project key its project's, a
 * merchant credential all of the merchant's (merchant-wide ones too: devices, credit, merchant
 * keys), or one project's with `projectId`; `sandbox` keeps one side (the merchant-wide events are
 * on both). A project or subject outside the scope, or an id that is not a UUID, gives an empty
 * list, exactly like one with no events.
 */
export function visibleAuditEvents(
  actor: Actor,
  filter: { projectId?: string | null; subjectId?: string | null; sideProjectIds?: readonly string[] | null },
): Prisma.AuditEventWhereInput {
  const scope = callerScope(actor, filter.projectId);
  const { subjectId, sideProjectIds } = filter;
  if (scope.none || (subjectId && !uuidSchema.safeParse(subjectId).success)) return { id: { in: [] } };
  // One side (live or test): its projects' events, and the merchant-wide ones, which are both sides'.
  const side: Prisma.AuditEventWhereInput = sideProjectIds ? { OR: [{ projectId: null }, { projectId: { in: [...sideProjectIds] } }] } : {};
  return { ...scopeWhere(scope), ...(subjectId ? { subjectId } : {}), ...side };
}

/** The caller's merchant's projects of one side (`sandbox`), for `visibleAuditEvents`; null when no side is asked. */
export async function sideProjectIds(db: Pick<PrismaClient, 'project'>, actor: Actor, sandbox: boolean | null): Promise<string[] | null> {
  if (sandbox === null) return null;
  const { merchantId } = callerScope(actor);
  const projects = await db.project.findMany({ where: { merchantId, sandbox }, select: { id: true } });
  return projects.map((p) => p.id);
}
