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
