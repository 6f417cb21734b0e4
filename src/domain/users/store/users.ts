import type { Tx } from '../../../db/prisma.js';
import { statement, type Queryable } from '../../../db/statement.js';

/** What sign-in needs of a user, with its merchant's state, in one row. */
export type SignInUserRow = {
  id: string;
  merchant_id: string;
  role: string;
  password_hash: string | null;
  merchant_active: boolean;
  /** The sealed TOTP secret when two-factor is on; null when it is off (or only pending). */
  totp_secret: string | null;
};

const byEmail = statement<[string], SignInUserRow>(
  'user-by-email',
  `SELECT u.id, u.merchant_id, u.role, u.password_hash, m.active AS merchant_active,
          CASE WHEN u.totp_enabled_at IS NOT NULL THEN u.totp_secret END AS totp_secret
     FROM users u JOIN merchants m ON m.id = u.merchant_id WHERE lower(u.email) = $1`,
);

/** The user with this email (already lower-cased), on the pool: one indexed read. */
export async function userByEmail(db: Queryable, email: string): Promise<SignInUserRow | undefined> {
  const [user] = await byEmail(db, email);
  return user;
}

/** Locks every user of the merchant until commit, in id order; their ids and roles (the last-owner rule counts them). */
export async function lockMerchantUsers(tx: Tx, merchantId: string): Promise<{ id: string; role: string }[]> {
  return tx.$queryRaw<{ id: string; role: string }[]>`SELECT id, role FROM users WHERE merchant_id = ${merchantId}::uuid ORDER BY id FOR UPDATE`;
}
