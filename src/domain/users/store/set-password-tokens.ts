import type { Tx } from '../../../db/prisma.js';

/**
 * Spends a set-password token in one conditional UPDATE, so of two uses at once only one gets it:
 * its user, or undefined when the token is unknown, used or expired (by the database's clock).
 */
export async function spendSetPasswordToken(tx: Tx, tokenHash: string): Promise<string | undefined> {
  const spent = await tx.$queryRaw<{ user_id: string }[]>`
      UPDATE set_password_tokens SET used_at = now()
       WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now()
       RETURNING user_id`;
  return spent[0]?.user_id;
}
