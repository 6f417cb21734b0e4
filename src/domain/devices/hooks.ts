import { AppError } from '../../errors.js';
import { writeAudited } from '../audit/audit.js';
import { changesOf } from '../audit/changes.js';
import { requireActor, type Actor, type ActorOf } from '../auth/actor.js';
import { hashCredential } from '../auth/credentials.js';
import type { Deps } from '../deps.js';
import { findOwnedDevice } from './devices.js';
import { HOOK_SECRET_PATTERN, newHookColumns, NO_HOOK } from './hook-secret.js';

/** Merchant: a new hook URL for a device; the previous one stops working at once. */
export async function issueDeviceHook(deps: Deps, actor: Actor, deviceId: string) {
  const merchant = requireActor(actor, 'merchant');
  const device = await findOwnedDevice(deps.prisma, merchant.merchantId, deviceId);
  if (device.revokedAt) throw new AppError('invalid_state', 'The device is revoked; create a new one.', { revoked: true });
  const hook = newHookColumns();
  const updated = await writeAudited(
    deps.prisma,
    actor,
    (tx) => tx.device.update({ where: { id: device.id }, data: hook.data }),
    (d) => ({ action: 'device.hook_issued', subjectType: 'device', subjectId: d.id, projectId: null, changes: changesOf(device, d, ['hookSecretPrefix']) }),
  );
  return { device: updated, secret: hook.secret };
}

/** Merchant: the device's hook URL stops working; its token is untouched. */
export async function revokeDeviceHook(deps: Deps, actor: Actor, deviceId: string) {
  const merchant = requireActor(actor, 'merchant');
  const device = await findOwnedDevice(deps.prisma, merchant.merchantId, deviceId);
  if (!device.hookSecretHash) return device;
  return writeAudited(
    deps.prisma,
    actor,
    (tx) => tx.device.update({ where: { id: device.id }, data: NO_HOOK }),
    (d) => ({ action: 'device.hook_revoked', subjectType: 'device', subjectId: d.id, projectId: null, changes: changesOf(device, d, ['hookSecretPrefix']) }),
  );
}

const unknownHook = () => new AppError('unauthorized', 'This route takes a live device hook secret in its URL: /v1/device/hooks/{secret}.');

/** The device a hook secret stands for; unknown, reissued or revoked → 401, inactive merchant → 403. */
export async function authenticateHook(deps: Deps, secret: string | undefined): Promise<ActorOf<'device'>> {
  if (!secret || !HOOK_SECRET_PATTERN.test(secret)) throw unknownHook();
  const device = await deps.prisma.device.findUnique({ where: { hookSecretHash: hashCredential(secret) }, include: { merchant: true } });
  if (!device || device.revokedAt) throw unknownHook();
  if (!device.merchant.active) throw new AppError('merchant_inactive');
  return { kind: 'device', deviceId: device.id, merchantId: device.merchantId };
}
