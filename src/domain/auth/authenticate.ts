import { AppError } from '../../errors.js';
import type { Deps } from '../deps.js';
import { publicActor, type Actor } from './actor.js';
import { classifyCredential, hashCredential } from './credentials.js';

const BEARER = /^Bearer ([^\s]+)$/;

/**
 * Resolves an Authorization header to an Actor. No header → the public actor; anything present
 * but unusable (malformed, unknown, revoked) → 401; a known key of an inactive merchant or
 * project → 403. One indexed lookup by hash.
 */
export async function authenticate(deps: Deps, header: string | undefined): Promise<Actor> {
  if (header === undefined || header === '') return publicActor;
  const match = BEARER.exec(header.trim());
  const token = match?.[1];
  const kind = token ? classifyCredential(token) : undefined;
  if (!token || !kind) throw new AppError('unauthorized');
  const hash = hashCredential(token);

  if (kind === 'merchant') {
    const key = await deps.prisma.merchantKey.findUnique({ where: { keyHash: hash }, include: { merchant: true } });
    if (!key || key.revokedAt) throw new AppError('unauthorized');
    if (!key.merchant.active) throw new AppError('merchant_inactive');
    return { kind: 'merchant', merchantId: key.merchantId, keyId: key.id };
  }
  if (kind === 'project') {
    const key = await deps.prisma.apiKey.findUnique({
      where: { keyHash: hash },
      include: { project: { include: { merchant: true } } },
    });
    if (!key || key.revokedAt) throw new AppError('unauthorized');
    const { project } = key;
    if (!project.merchant.active) throw new AppError('merchant_inactive');
    if (!project.active || project.suspendedAt) throw new AppError('project_inactive');
    return { kind: 'project', projectId: project.id, merchantId: project.merchantId, sandbox: project.sandbox, keyId: key.id };
  }
  const device = await deps.prisma.device.findUnique({ where: { tokenHash: hash }, include: { merchant: true } });
  if (!device || device.revokedAt) throw new AppError('unauthorized');
  if (!device.merchant.active) throw new AppError('merchant_inactive');
  return { kind: 'device', deviceId: device.id, merchantId: device.merchantId };
}
