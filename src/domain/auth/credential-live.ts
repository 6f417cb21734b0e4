import type { Deps } from '../deps.js';
import { sessionStillLive } from '../users/store/sessions.js';
import type { Actor } from './actor.js';

/**
 * Whether the credential an actor was built from still stands: its key not revoked, its device not
 * revoked, its session live with the same role, its project and merchant active. One query;
 * long-lived subscriptions ask it again whenever a credential changes anywhere.
 */
export async function credentialStillValid(deps: Deps, actor: Actor): Promise<boolean> {
  switch (actor.kind) {
    case 'public':
    case 'operator':
      return true;
    case 'project': {
      const key = await deps.prisma.apiKey.findUnique({ where: { id: actor.keyId }, select: { revokedAt: true, project: { select: { active: true, suspendedAt: true, merchant: { select: { active: true } } } } } });
      return Boolean(key && !key.revokedAt && key.project.active && !key.project.suspendedAt && key.project.merchant.active);
    }
    case 'merchant': {
      const key = await deps.prisma.merchantKey.findUnique({ where: { id: actor.keyId }, select: { revokedAt: true, merchant: { select: { active: true } } } });
      return Boolean(key && !key.revokedAt && key.merchant.active);
    }
    case 'user':
      return actor.sessionId !== null && sessionStillLive(deps.pool, actor.sessionId, actor.role);
    case 'device': {
      const device = await deps.prisma.device.findUnique({ where: { id: actor.deviceId }, select: { revokedAt: true, merchant: { select: { active: true } } } });
      return Boolean(device && !device.revokedAt && device.merchant.active);
    }
  }
}
