/**
 * A phone's health (docs/forwarders.md "Phone health"), as a pure decision over what the store
 * reads: `offline` (not seen for DEVICE_OFFLINE_SECONDS, the online rule of device_online.sql, or
 * revoked), `silent` (seen, but no message from any bank's sender for SILENT_AFTER while payments
 * were made on its cards), `low_battery` (at most LOW_BATTERY % and not charging), else `ok`. The
 * first that holds wins: a phone that is offline is not also called silent.
 */
export const HEALTH_STATES = ['ok', 'low_battery', 'offline', 'silent'] as const;
export type Health = (typeof HEALTH_STATES)[number];

export const LOW_BATTERY = 15;
export const SILENT_AFTER_MS = 6 * 60 * 60_000;
/**
 * A payment counts toward "silent" once its payer has had this long to pay: the first payment of
 * a quiet morning does not call the phone silent before its deposit could have arrived.
 */
export const SILENT_PAYMENT_GRACE_MS = 10 * 60_000;

export type HealthFacts = { online: boolean; battery: number | null; charging: boolean | null; silent: boolean };

export function decideHealth(f: HealthFacts): Health {
  if (!f.online) return 'offline';
  if (f.silent) return 'silent';
  if (f.battery !== null && f.battery <= LOW_BATTERY && f.charging !== true) return 'low_battery';
  return 'ok';
}

/** The webhook event a change of health sends (opt-in); offline and back have their own (transitions.ts). */
export function healthEventType(to: Health): 'device.low_battery' | 'device.silent' | null {
  return to === 'low_battery' ? 'device.low_battery' : to === 'silent' ? 'device.silent' : null;
}
