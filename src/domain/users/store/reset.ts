import type { Tx } from '../../../db/prisma.js';

/** The user with this (lower-cased) email, locked until commit: one user's resets take turns. */
export async function lockUserByEmail(tx: Tx, email: string): Promise<{ id: string; merchantId: string; email: string } | undefined> {
  const [row] = await tx.$queryRaw<{ id: string; merchant_id: string; email: string }[]>`SELECT id, merchant_id, email FROM users WHERE lower(email) = ${email} FOR UPDATE`;
  return row && { id: row.id, merchantId: row.merchant_id, email: row.email };
}
