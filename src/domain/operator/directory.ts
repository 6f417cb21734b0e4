import { AppError } from '../../errors.js';
import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { uuidSchema } from '../validation.js';
import { WITH_CREDIT } from '../merchants/merchants.js';

/** Operator reads of merchants and projects, for the CLI: newest first, bounded. */
const LIST_LIMIT = 500;

export async function listMerchants(deps: Deps, actor: Actor) {
  requireActor(actor, 'operator');
  return deps.prisma.merchant.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: LIST_LIMIT, include: WITH_CREDIT });
}

export async function showMerchant(deps: Deps, actor: Actor, merchantId: string) {
  requireActor(actor, 'operator');
  const merchant = uuidSchema.safeParse(merchantId).success
    ? await deps.prisma.merchant.findUnique({ where: { id: merchantId }, include: { ...WITH_CREDIT, projects: { orderBy: { createdAt: 'asc' } } } })
    : null;
  if (!merchant) throw AppError.notFound('Merchant');
  return merchant;
}

export async function listProjects(deps: Deps, actor: Actor, filter: { merchantId?: string } = {}) {
  requireActor(actor, 'operator');
  if (filter.merchantId !== undefined && !uuidSchema.safeParse(filter.merchantId).success) return [];
  return deps.prisma.project.findMany({
    where: filter.merchantId ? { merchantId: filter.merchantId } : {},
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: LIST_LIMIT,
  });
}

export async function showProject(deps: Deps, actor: Actor, projectId: string) {
  requireActor(actor, 'operator');
  const project = uuidSchema.safeParse(projectId).success
    ? await deps.prisma.project.findUnique({
        where: { id: projectId },
        include: { apiKeys: { orderBy: { createdAt: 'asc' } }, _count: { select: { cards: true, links: true, payments: true } } },
      })
    : null;
  if (!project) throw AppError.notFound('Project');
  return project;
}
