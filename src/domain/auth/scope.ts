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

/**
 * The caller's scope in SQL, for the statements planned once with their values (exports, stats;
 * $1 the merchant, $2 one project or NULL): without a project, the merchant's rows; with one, that
 * project's rows, the merchant owning it checked once on `projects`. Never "merchant and project"
 * on the rows themselves: the planner then pairs the merchant's created_at index with the
 * project's and walks a busy merchant's whole range for a small project's few rows (a 30-day
 * export: 43,634 index entries read for 297 rows on a year of data; docs/BENCHMARKS.md "Scale 1:
 * what fixed the shortfalls"). `alias` is the table's alias in the statement, or null.
 */
export function scopeSql(alias: string | null): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `(($2::uuid IS NULL AND ${column('merchant_id')} = $1)
            OR ($2::uuid IS NOT NULL AND ${column('project_id')} = $2::uuid
                AND EXISTS (SELECT 1 FROM projects owned WHERE owned.id = $2::uuid AND owned.merchant_id = $1)))`;
}
