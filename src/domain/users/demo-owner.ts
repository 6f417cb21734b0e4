import { recordAudit } from '../audit/audit.js';
import { operatorActor } from '../auth/actor.js';
import { randomBase62 } from '../auth/credentials.js';
import { forgetCachedCredentials } from '../auth/auth-cache.js';
import type { Deps } from '../deps.js';
import { hashPassword } from './password.js';

export const DEMO_OWNER_EMAIL = 'owner@demo.local';

/**
 * The demo merchant's owner, with a new random password (shown once, like the demo keys): created
 * on the first start of the embedded default, its password replaced and its sessions ended each
 * time the demo is asked for again (CLI `demo`), since only a hash is kept.
 */
export async function resetDemoOwner(deps: Deps, merchantId: string): Promise<{ email: string; password: string }> {
  const password = randomBase62(20);
  const passwordHash = await hashPassword(password);
  await deps.prisma.$transaction(async (tx) => {
    const existing = await tx.user.findFirst({ where: { email: DEMO_OWNER_EMAIL, merchantId } });
    const now = new Date();
    const user = existing
      ? await tx.user.update({ where: { id: existing.id }, data: { passwordHash, passwordSetAt: now, role: 'owner' } })
      : await tx.user.create({ data: { merchantId, email: DEMO_OWNER_EMAIL, role: 'owner', passwordHash, passwordSetAt: now } });
    if (existing) await tx.session.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: now } });
    await recordAudit(tx, operatorActor, {
      action: existing ? 'user.password_set' : 'user.created',
      subjectType: 'user',
      subjectId: user.id,
      projectId: null,
      merchantId,
      note: 'demo owner',
      changes: existing ? null : { email: { from: null, to: DEMO_OWNER_EMAIL }, role: { from: null, to: 'owner' } },
    });
  });
  forgetCachedCredentials(deps);
  return { email: DEMO_OWNER_EMAIL, password };
}
