import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';
import { lockIssuer } from './store/issuer-locks.js';

/** Unrevoked API keys one project may hold (docs/decisions.md "Credential limits": 409 `limit_reached`). */
export const MAX_ACTIVE_API_KEYS = 20;
/** Unrevoked devices one merchant may hold: a device belongs to the merchant, not to one project (docs/decisions.md). */
export const MAX_ACTIVE_DEVICES = 50;

/**
 * Inside the transaction that issues an API key: issuers of one project queue on a lock held until
 * commit, so the count each one reads includes every key issued before it and a burst cannot pass
 * the limit together.
 */
export async function ensureRoomForApiKey(tx: Tx, projectId: string): Promise<void> {
  await lockIssuer(tx, `api-keys:${projectId}`);
  const active = await tx.apiKey.count({ where: { projectId, revokedAt: null } });
  if (active >= MAX_ACTIVE_API_KEYS) {
    throw limitReached(`The project already has ${MAX_ACTIVE_API_KEYS} active API keys; revoke one first.`, MAX_ACTIVE_API_KEYS);
  }
}

/** Inside the transaction that creates a device: as for keys, per merchant. */
export async function ensureRoomForDevice(tx: Tx, merchantId: string): Promise<void> {
  await lockIssuer(tx, `devices:${merchantId}`);
  const active = await tx.device.count({ where: { merchantId, revokedAt: null } });
  if (active >= MAX_ACTIVE_DEVICES) {
    throw limitReached(`The merchant already has ${MAX_ACTIVE_DEVICES} active devices; revoke one first.`, MAX_ACTIVE_DEVICES);
  }
}

function limitReached(message: string, limit: number): AppError {
  return new AppError('limit_reached', message, { limit });
}
