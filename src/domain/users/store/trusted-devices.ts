import type { Tx } from '../../../db/prisma.js';
import { statement, type Queryable } from '../../../db/statement.js';

/** The trusted device this token stands for, for this user only, while it lasts; null otherwise. */
const byToken = statement<[tokenHash: string, userId: string], { id: string }>(
  'trusted-device-by-token',
  `SELECT id FROM trusted_devices WHERE token_hash = $1 AND user_id = $2 AND expires_at > now()`,
);

export async function trustedDeviceOf(db: Queryable, tokenHash: string, userId: string): Promise<string | null> {
  const [row] = await byToken(db, tokenHash, userId);
  return row?.id ?? null;
}

/** Deletes the devices past their end: they no longer stand for anything. */
export const pruneTrustedDevices = statement<[], never>('trusted-device-prune', `DELETE FROM trusted_devices WHERE expires_at < now()`);

// A client that signs in without keeping cookies (a script) leaves a device at each sign-in.
const DEVICES_KEPT_PER_USER = 20;

/** Keeps the user's newest devices only. */
export async function forgetOldDevices(tx: Tx, userId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM trusted_devices WHERE user_id = ${userId}::uuid AND id NOT IN (
    SELECT id FROM trusted_devices WHERE user_id = ${userId}::uuid ORDER BY created_at DESC, id DESC LIMIT ${DEVICES_KEPT_PER_USER})`;
}
