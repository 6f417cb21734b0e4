import { z } from 'zod';
import { AppError } from '../../errors.js';
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
    return tx.device.create({
      data: { merchantId: merchant.merchantId, name: data.name, tokenHash: issued.hash, tokenPrefix: issued.prefix, ...hook.data },
    });
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
  // The hook URL goes with the token: a revoked phone is shut out whichever way it forwards.
  return deps.prisma.device.update({ where: { id: device.id }, data: { revokedAt: device.revokedAt ?? new Date(), ...NO_HOOK } });
}
