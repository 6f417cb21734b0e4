import { z } from 'zod';
import { AppError } from '../../errors.js';
import { recordAudit, writeAudited } from '../audit/audit.js';
import { createdValues } from '../audit/changes.js';
import { requireActor, type Actor } from '../auth/actor.js';
import { ensureRoomForDevice } from '../auth/credential-limits.js';
import { credentialPrefix, issueCredential } from '../auth/credentials.js';
import type { Deps } from '../deps.js';
import { parseInput, uuidSchema } from '../validation.js';
import { newHookColumns, NO_HOOK } from './hook-secret.js';

const createDeviceInput = z.object({ name: z.string().trim().min(1).max(100) });

/** Merchant: an SMS-forwarding phone and its token, shown once; within the merchant's limit of active devices (409 `limit_reached`). */
export async function createDevice(deps: Deps, actor: Actor, input: unknown) {
  const merchant = requireActor(actor, 'merchant');
  const data = parseInput(createDeviceInput, input);
  const issued = issueCredential(credentialPrefix.device);
  const hook = newHookColumns();
  const device = await deps.prisma.$transaction(async (tx) => {
    await ensureRoomForDevice(tx, merchant.merchantId);
    const created = await tx.device.create({
      data: { merchantId: merchant.merchantId, name: data.name, tokenHash: issued.hash, tokenPrefix: issued.prefix, ...hook.data },
    });
    await recordAudit(tx, actor, {
      action: 'device.created',
      subjectType: 'device',
      subjectId: created.id,
      projectId: null,
      changes: createdValues(created, ['name', 'tokenPrefix', 'hookSecretPrefix']),
    });
    return created;
  });
  return { device, token: issued.secret, hookSecret: hook.secret };
}

export async function findOwnedDevice(db: Pick<Deps['prisma'], 'device'>, merchantId: string, deviceId: string) {
  if (!uuidSchema.safeParse(deviceId).success) throw AppError.notFound('Device');
  const device = await db.device.findFirst({ where: { id: deviceId, merchantId } });
  if (!device) throw AppError.notFound('Device');
  return device;
}

export async function revokeDevice(deps: Deps, actor: Actor, deviceId: string) {
  const merchant = requireActor(actor, 'merchant');
  const device = await findOwnedDevice(deps.prisma, merchant.merchantId, deviceId);
  if (device.revokedAt && !device.hookSecretHash) return device;
  // The hook URL goes with the token: a revoked phone is shut out whichever way it forwards.
  return writeAudited(
    deps.prisma,
    actor,
    (tx) => tx.device.update({ where: { id: device.id }, data: { revokedAt: device.revokedAt ?? new Date(), ...NO_HOOK } }),
    (d) => ({ action: 'device.revoked', subjectType: 'device', subjectId: d.id, projectId: null }),
  );
}
