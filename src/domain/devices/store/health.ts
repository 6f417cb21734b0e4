import type { PrismaClient, Tx } from '../../../db/prisma.js';
import type { Health, HealthFacts } from '../health-state.js';

/** A device, its notified health and the facts its health now follows from (health-state.ts). */
export type HealthRow = HealthFacts & { id: string; health: Health; lastSeenAt: Date | null; lastBankMessageAt: Date | null };

/**
 * `healthFacts`' statement ($1 after id, $2 limit, $3 online ms, $4 silent ms, $5 grace ms), exported
 * for the test that reads its plan: the last bank message is the first entry of
 * bank_messages_device_trusted_idx, whose predicate is the statement's own (an unknown sender's
 * messages are not in it, so a phone flooded by one costs nothing here).
 */
export const HEALTH_FACTS_SQL = `
    SELECT d.id, d.health, d.battery, d.charging, d.last_heartbeat_at AS last_seen, b.at AS last_bank,
      device_online(d.last_heartbeat_at, d.revoked_at, $3::integer) AS online,
      (coalesce(b.at, d.created_at) < now() - $4::double precision * interval '1 millisecond' AND EXISTS (
        SELECT 1 FROM cards c JOIN payments p ON p.card_id = c.id
        WHERE c.device_id = d.id AND NOT p.sandbox
          AND p.created_at >= now() - $4::double precision * interval '1 millisecond' AND p.created_at <= now() - $5::double precision * interval '1 millisecond')) AS silent
    FROM devices d
    LEFT JOIN LATERAL (
      SELECT m.created_at AS at FROM bank_messages m
      WHERE m.device_id = d.id AND m.bank_code IS NOT NULL AND NOT m.simulated AND m.evidence_problem IS DISTINCT FROM 'unknown_sender'
      ORDER BY m.created_at DESC LIMIT 1) b ON true
    WHERE d.revoked_at IS NULL AND d.id > $1::uuid
    ORDER BY d.id
    LIMIT $2::integer`;

/**
 * At most `limit` devices (not revoked) after `afterId`, in id order, with the facts of their
 * health on the database's clock: online by `device_online` (src/domain/devices/sql/device_online.sql),
 * silent when no message of a bank's parser (not from an unknown sender) came for `silentMs`
 * (counted from the device's creation when none ever came) while a live payment was created on its
 * cards in that window, at least `graceMs` ago.
 */
export async function healthFacts(prisma: PrismaClient, afterId: string, limit: number, onlineMs: number, silentMs: number, graceMs: number): Promise<HealthRow[]> {
  const rows = await prisma.$queryRawUnsafe<{ id: string; health: Health; battery: number | null; charging: boolean | null; online: boolean; silent: boolean; last_seen: Date | null; last_bank: Date | null }[]>(
    HEALTH_FACTS_SQL,
    afterId,
    limit,
    onlineMs,
    silentMs,
    graceMs,
  );
  return rows.map((r) => ({ id: r.id, health: r.health, battery: r.battery, charging: r.charging, online: r.online, silent: r.silent, lastSeenAt: r.last_seen, lastBankMessageAt: r.last_bank }));
}

/** Moves a device's notified health from `from` to `to`; false when another sweep got there first. */
export async function moveHealth(tx: Tx, deviceId: string, from: Health, to: Health): Promise<boolean> {
  const { count } = await tx.device.updateMany({ where: { id: deviceId, health: from }, data: { health: to, healthSince: new Date() } });
  if (count !== 1) return false;
  await tx.deviceHealthEvent.create({ data: { deviceId, fromHealth: from, toHealth: to } });
  return true;
}
