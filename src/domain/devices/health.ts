import type { Config } from '../../config.js';
import type { Deps } from '../deps.js';
import { onlineDeviceIds } from './store/presence.js';

/**
 * The online rule (docs/live-setup.md "5. When a phone goes offline"; card choice) is SQL
 * `device_online` (src/domain/devices/sql/device_online.sql): not revoked, and seen at most
 * DEVICE_OFFLINE_SECONDS ago. Card choice (create_payment, given `deviceOnlineMs`), GraphQL
 * `Device.online` (below) and the health sweep all call it, so they read one rule on one clock, the
 * database's.
 */
export function deviceOnlineMs(config: Pick<Config, 'deviceOfflineSeconds'>): number {
  return config.deviceOfflineSeconds * 1000;
}

type Batch = { ids: Set<string>; online: Promise<Set<string>> };
const batches = new WeakMap<Pick<Deps, 'prisma' | 'config'>, Batch>();

/**
 * Whether a device is online now. The devices asked for in one tick (a GraphQL list of them) are
 * read in one statement.
 */
export function isDeviceOnline(deps: Pick<Deps, 'prisma' | 'config'>, deviceId: string): Promise<boolean> {
  let batch = batches.get(deps);
  if (!batch) {
    const ids = new Set<string>();
    const online = new Promise<Set<string>>((resolve, reject) => {
      process.nextTick(() => {
        batches.delete(deps);
        onlineAmong(deps, [...ids]).then(resolve, reject);
      });
    });
    batch = { ids, online };
    batches.set(deps, batch);
  }
  batch.ids.add(deviceId);
  return batch.online.then((online) => online.has(deviceId));
}

async function onlineAmong(deps: Pick<Deps, 'prisma' | 'config'>, ids: string[]): Promise<Set<string>> {
  const rows = await onlineDeviceIds(deps.prisma, ids, deviceOnlineMs(deps.config));
  return new Set(rows.map((r) => r.id));
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
