import type { Deps } from '../deps.js';
import { recordDeviceEvent } from '../webhooks/device-events.js';
import { deviceOnlineMs } from './health.js';
import { decideHealth, healthEventType, SILENT_AFTER_MS, SILENT_PAYMENT_GRACE_MS, type Health } from './health-state.js';
import { healthFacts, moveHealth, type HealthRow } from './store/health.js';

// Devices read per statement; the sweep pages through all of them by id.
const PAGE = 500;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Records each device whose health changed (Device.healthEvents) and sends device.low_battery and
 * device.silent to the endpoints that opted in, in the transaction that moved the notified state:
 * the move is conditional on the state read, so two sweeps at once record a change once. Returns how
 * many changed.
 */
export async function reportHealthChanges(deps: Deps, windows = { silentMs: SILENT_AFTER_MS, graceMs: SILENT_PAYMENT_GRACE_MS }): Promise<number> {
  let changed = 0;
  for (let after = FIRST_ID; ; ) {
    const rows = await healthFacts(deps.prisma, after, PAGE, deviceOnlineMs(deps.config), windows.silentMs, windows.graceMs);
    for (const row of rows) {
      const to = decideHealth(row);
      if (to !== row.health && (await recordChange(deps, row, to))) changed++;
    }
    if (rows.length < PAGE) return changed;
    after = rows.at(-1)!.id;
  }
}

function recordChange(deps: Deps, row: HealthRow, to: Health): Promise<boolean> {
  return deps.prisma.$transaction(async (tx) => {
    if (!(await moveHealth(tx, row.id, row.health, to))) return false;
    const type = healthEventType(to);
    if (type) {
      const extra: Record<string, string | number | boolean | null> = type === 'device.low_battery' ? { battery: row.battery, charging: row.charging } : { lastBankMessageAt: row.lastBankMessageAt?.toISOString() ?? null };
      await recordDeviceEvent(tx, deps.jobs, { deviceId: row.id, type, lastSeenAt: row.lastSeenAt, extra });
    }
    return true;
  });
}
