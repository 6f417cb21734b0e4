import type { Deps } from '../deps.js';
import { recordDeviceEvent } from '../webhooks/device-events.js';
import { deviceOnlineMs } from './health.js';
import { clearOfflineIfSeen, markSilentDevicesOffline, returnedDeviceIds } from './store/presence.js';

// Devices reported per statement; the sweep repeats until none is left.
const SWEEP_BATCH = 100;

/**
 * device.offline for every device with an active card that has been silent past the threshold and
 * is not reported yet. The conditional UPDATE sets the notified state and the events are written in
 * its transaction, so a second sweep (another worker, a job run twice) finds nothing to do; rows a
 * concurrent request is stamping are skipped (it is being seen). A device never seen is not
 * reported: it was never online. Returns how many went offline. "Silent" compares with
 * `device_online_since` (src/domain/devices/sql/device_online.sql): for a device seen and not
 * revoked, exactly not `device_online`, written so that the silent-devices index is read as a range.
 */
export async function reportOfflineDevices(deps: Deps): Promise<number> {
  const thresholdMs = deviceOnlineMs(deps.config);
  let total = 0;
  for (;;) {
    const count = await deps.prisma.$transaction(async (tx) => {
      const rows = await markSilentDevicesOffline(tx, thresholdMs, SWEEP_BATCH);
      for (const row of rows) {
        await recordDeviceEvent(tx, deps.jobs, { deviceId: row.id, type: 'device.offline', lastSeenAt: row.last_heartbeat_at });
      }
      return rows.length;
    });
    total += count;
    if (count < SWEEP_BATCH) return total;
  }
}

/**
 * device.online for a device reported offline that has been seen since. Clearing the notified state
 * is conditional, so of two requests (or a request and the sweep) that notice it, one sends.
 */
export async function reportOnline(deps: Deps, deviceId: string): Promise<boolean> {
  return deps.prisma.$transaction(async (tx) => {
    const rows = await clearOfflineIfSeen(tx, deviceId);
    const row = rows[0];
    if (!row) return false;
    await recordDeviceEvent(tx, deps.jobs, { deviceId: row.id, type: 'device.online', lastSeenAt: row.last_heartbeat_at });
    return true;
  });
}

/** Devices seen after they were reported offline whose device.online a crashed request never sent. */
export async function reportReturnedDevices(deps: Deps): Promise<number> {
  const rows = await returnedDeviceIds(deps.prisma, SWEEP_BATCH);
  let count = 0;
  for (const row of rows) if (await reportOnline(deps, row.id)) count++;
  return count;
}
