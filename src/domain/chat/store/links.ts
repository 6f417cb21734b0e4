import type { PrismaClient, Tx } from '../../../db/prisma.js';
import { Prisma } from '../../../generated/prisma/client.js';

type Db = Tx | PrismaClient;

/** Spends a link code (unused, unexpired, of this platform) and returns its user, or nothing. */
export async function spendLinkCode(tx: Tx, codeHash: string, platform: string): Promise<string | null> {
  const [spent] = await tx.$queryRaw<{ user_id: string }[]>`
    UPDATE chat_link_codes SET used_at = now()
    WHERE code_hash = ${codeHash} AND platform = ${platform} AND used_at IS NULL AND expires_at > now()
    RETURNING user_id`;
  return spent?.user_id ?? null;
}

/** Whether any chat of a user of the project's merchant takes this event type (one index walk). */
export async function projectEventHasChats(tx: Db, projectId: string, type: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM projects p JOIN users u ON u.merchant_id = p.merchant_id JOIN chat_links l ON l.user_id = u.id
      WHERE p.id = ${projectId}::uuid AND ${type} = ANY (l.events)) AS any`;
  return row?.any ?? false;
}

/** Whether any chat of a user of the device's merchant takes this event type. */
export async function deviceEventHasChats(tx: Db, deviceId: string, type: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM devices d JOIN users u ON u.merchant_id = d.merchant_id JOIN chat_links l ON l.user_id = u.id
      WHERE d.id = ${deviceId}::uuid AND ${type} = ANY (l.events)) AS any`;
  return row?.any ?? false;
}

/**
 * The links of the merchant's users that take this event type, oldest first, one per chat: a group
 * linked by several users is told once, through the link of its strongest user (owner, then staff,
 * then viewer; the oldest link among equals), whose buttons act as that user (docs/notifications.md).
 */
export function linksTaking(db: Db, merchantId: string, type: string): Promise<{ id: string }[]> {
  return db.$queryRaw<{ id: string }[]>`
    SELECT id FROM (
      SELECT DISTINCT ON (l.platform, l.chat_id) l.id, l.created_at FROM users u JOIN chat_links l ON l.user_id = u.id
      WHERE u.merchant_id = ${merchantId}::uuid AND ${type} = ANY (l.events)
      ORDER BY l.platform, l.chat_id, ${ROLE_RANK}, l.created_at, l.id) one_per_chat
    ORDER BY created_at, id`;
}

/** The order in which a chat's links speak for it: the strongest role first. */
const ROLE_RANK = Prisma.sql`CASE u.role WHEN 'owner' THEN 0 WHEN 'staff' THEN 1 ELSE 2 END`;

export type MerchantDay = { confirmed_count: bigint; confirmed_sum: bigint | null; review_payments: bigint; review_messages: bigint; pending: bigint };

/** A merchant's live day since `from`: confirmed (count, sum received), waiting for a decision, pending. */
export async function merchantDay(db: Db, merchantId: string, from: Date): Promise<MerchantDay> {
  const [row] = await db.$queryRaw<MerchantDay[]>`
    SELECT
      (SELECT count(*) FROM payments WHERE merchant_id = ${merchantId}::uuid AND NOT sandbox AND status = 'confirmed' AND confirmed_at >= ${from}) AS confirmed_count,
      (SELECT sum(coalesce(amount_received, amount_final)) FROM payments WHERE merchant_id = ${merchantId}::uuid AND NOT sandbox AND status = 'confirmed' AND confirmed_at >= ${from})::bigint AS confirmed_sum,
      (SELECT count(*) FROM payments WHERE merchant_id = ${merchantId}::uuid AND NOT sandbox AND review_required) AS review_payments,
      (SELECT count(*) FROM bank_messages WHERE merchant_id = ${merchantId}::uuid AND NOT simulated AND status = 'needs_review') AS review_messages,
      (SELECT count(*) FROM payments WHERE merchant_id = ${merchantId}::uuid AND NOT sandbox AND status = 'pending') AS pending`;
  return row!;
}
