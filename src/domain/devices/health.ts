import type { Config } from '../../config.js';

/**
 * The one online rule (CONTRACT "Devices", "Payments" card choice): a device is online while it is
 * not revoked and its last request (`last_heartbeat_at`, the "last seen" column) is at most
 * DEVICE_OFFLINE_SECONDS old. Card choice (the create_payment SQL function, given `deviceOnlineMs`),
 * GraphQL `Device.online` and the health sweep all read it from here.
 */
export function deviceOnlineMs(config: Pick<Config, 'deviceOfflineSeconds'>): number {
  return config.deviceOfflineSeconds * 1000;
}

export type SeenColumns = { lastHeartbeatAt: Date | null; revokedAt: Date | null };

export function isDeviceOnline(device: SeenColumns, now: Date, config: Pick<Config, 'deviceOfflineSeconds'>): boolean {
  if (device.revokedAt || !device.lastHeartbeatAt) return false;
  return now.getTime() - device.lastHeartbeatAt.getTime() <= deviceOnlineMs(config);
}

// "Seen" is written at most this often per device, so a busy phone costs one UPDATE per few
// seconds. A tenth of the offline threshold keeps the stamp far fresher than the rule needs, even
// with a test's threshold of a few seconds.
const STAMP_EVERY_MS = 5_000;

export function stampEveryMs(config: Pick<Config, 'deviceOfflineSeconds'>): number {
  return Math.min(STAMP_EVERY_MS, deviceOnlineMs(config) / 10);
}

// The sweep runs a tenth of the threshold apart (within 1..30 s), so a silent device is reported
// within about 10 % of the threshold after it went offline.
export function sweepEveryMs(config: Pick<Config, 'deviceOfflineSeconds'>): number {
  return Math.min(30_000, Math.max(1_000, deviceOnlineMs(config) / 10));
}
