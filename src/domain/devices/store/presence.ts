import type { PrismaClient, Tx } from '../../../db/prisma.js';

/**
 * Whether devices are seen, and the offline/online reports, in the database: each decision is one
 * statement on the database's clock (the online rule is SQL `device_online`,
 * src/domain/devices/sql/device_online.sql), so requests, the sweep and other processes agree.
 */

/** Of `ids`, the devices online now (`onlineMs`: DEVICE_OFFLINE_SECONDS in milliseconds). */
export async function onlineDeviceIds(prisma: PrismaClient, ids: string[], onlineMs: number): Promise<{ id: string }[]> {
  return prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM devices
    WHERE id = ANY(${ids}::uuid[]) AND device_online(last_heartbeat_at, revoked_at, ${onlineMs}::integer)`;
}

/**
 * Stamps the device seen (and its last message, with `sms`) unless it was stamped less than
 * `everyMs` ago; the row when it was written, with the `offline_since` it had.
 */
export async function stampSeen(prisma: PrismaClient, deviceId: string, sms: boolean, everyMs: number): Promise<{ offline_since: Date | null }[]> {
  return prisma.$queryRaw<{ offline_since: Date | null }[]>`
    UPDATE devices
    SET last_heartbeat_at = clock_timestamp(), last_message_at = CASE WHEN ${sms} THEN clock_timestamp() ELSE last_message_at END
    WHERE id = ${deviceId}::uuid AND (
      last_heartbeat_at IS NULL OR last_heartbeat_at < now() - ${everyMs} * interval '1 millisecond'
      OR (${sms} AND (last_message_at IS NULL OR last_message_at < now() - ${everyMs} * interval '1 millisecond')))
    RETURNING offline_since`;
}

/** A device whose reported state just changed, and when it was last seen. */
export type Transitioned = { id: string; last_heartbeat_at: Date | null };

/**
 * Marks offline at most `limit` devices with an active card, silent past `thresholdMs` and not
 * reported yet, skipping rows a concurrent request is stamping.
 */
export async function markSilentDevicesOffline(tx: Tx, thresholdMs: number, limit: number): Promise<Transitioned[]> {
  return tx.$queryRaw<Transitioned[]>`
        UPDATE devices SET offline_since = now()
        WHERE id IN (
          SELECT d.id FROM devices d
          WHERE d.offline_since IS NULL AND d.revoked_at IS NULL
            AND d.last_heartbeat_at < device_online_since(${thresholdMs}::integer)
            AND EXISTS (SELECT 1 FROM cards c WHERE c.device_id = d.id AND c.active)
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        AND offline_since IS NULL
        RETURNING id, last_heartbeat_at`;
}

/** Clears the device's offline report when it has been seen since; the row only for the one caller that cleared it. */
export async function clearOfflineIfSeen(tx: Tx, deviceId: string): Promise<Transitioned[]> {
  return tx.$queryRaw<Transitioned[]>`
      UPDATE devices SET offline_since = NULL
      WHERE id = ${deviceId}::uuid AND offline_since IS NOT NULL AND last_heartbeat_at > offline_since
      RETURNING id, last_heartbeat_at`;
}

/** At most `limit` devices reported offline and seen since. */
export async function returnedDeviceIds(prisma: PrismaClient, limit: number): Promise<{ id: string }[]> {
  return prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM devices WHERE offline_since IS NOT NULL AND last_heartbeat_at > offline_since LIMIT ${limit}`;
}
