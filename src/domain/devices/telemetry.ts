import { z } from 'zod';
import { parseInput } from '../validation.js';

/**
 * Heartbeat telemetry (docs/forwarders.md "Phone health"): `{battery (0–100), charging, network
 * ("wifi" | "mobile" | "none"), appVersion}`, all optional. Our own body is checked strictly (a
 * wrong type or range is 400 naming the field); a forwarder app's template fills its fields with
 * text ("85%", "true", "WIFI"), which is read leniently, and only a number out of range is refused.
 */
export const NETWORKS = ['wifi', 'mobile', 'none'] as const;
export type Network = (typeof NETWORKS)[number];
export type Telemetry = { battery?: number; charging?: boolean; network?: Network; appVersion?: string };

const BATTERY = 'must be a number from 0 to 100 (percent)';
const battery = z.number({ error: BATTERY }).min(0, BATTERY).max(100, BATTERY).transform(Math.round);
const appVersion = z.string({ error: 'must be a string of 1 to 64 characters' }).trim().min(1, 'must be a string of 1 to 64 characters').max(64, 'must be a string of 1 to 64 characters');

/** Our own heartbeat body: `POST /v1/device/heartbeat`. */
export const telemetryInput = z.object({
  battery: battery.nullish(),
  charging: z.boolean({ error: 'must be true or false' }).nullish(),
  network: z.enum(NETWORKS, { error: `must be one of ${NETWORKS.join(', ')}` }).nullish(),
  appVersion: appVersion.nullish(),
});

const given = (t: z.output<typeof telemetryInput>): Telemetry =>
  Object.fromEntries(Object.entries(t).filter(([, v]) => v !== null && v !== undefined)) as Telemetry;

/** Telemetry from our own body (an empty or absent body is none); 400 `invalid_request` naming the field. */
export function parseTelemetry(body: unknown): Telemetry {
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return {};
  return given(parseInput(telemetryInput, body));
}

const PERCENT = /^\s*(\d{1,3}(?:\.\d+)?)\s*%?\s*$/;
const TRUE = new Set(['true', '1', 'yes', 'charging', 'full', 'ac', 'usb', 'wireless', 'dock']);
const FALSE = new Set(['false', '0', 'no', 'discharging', 'not charging', 'not_charging', 'unplugged', 'none']);
const WIFI = new Set(['wifi', 'wi-fi', 'wlan', 'net_wifi']);
const MOBILE = new Set(['mobile', 'cellular', 'net_mobile', '2g', '3g', '4g', '5g', 'lte', 'net_2g', 'net_3g', 'net_4g', 'net_5g']);
const NONE = new Set(['none', 'no', 'net_no', 'offline', 'disconnected']);

/** A template's battery: a number or "85" / "85%"; other text is no reading. */
function looseBattery(v: unknown): unknown {
  if (typeof v === 'number') return v;
  const m = typeof v === 'string' ? PERCENT.exec(v) : null;
  return m ? Number(m[1]) : undefined;
}

function looseCharging(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : undefined;
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return TRUE.has(s) ? true : FALSE.has(s) ? false : undefined;
}

function looseNetwork(v: unknown): Network | undefined {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return WIFI.has(s) ? 'wifi' : MOBILE.has(s) ? 'mobile' : NONE.has(s) ? 'none' : undefined;
}

/**
 * Telemetry a forwarder app's template put in its body (`battery`, `charging`, `network`,
 * `appVersion`; the capcom6 ping's health checks are mapped to these first). A battery that is a
 * number out of 0..100 is 400 naming it; text no rule reads is no reading.
 */
export function looseTelemetry(fields: Record<string, unknown>): Telemetry {
  const out: Telemetry = {};
  const b = looseBattery(fields.battery);
  if (b !== undefined) out.battery = parseInput(z.object({ battery }), { battery: b }).battery;
  const c = looseCharging(fields.charging);
  if (c !== undefined) out.charging = c;
  const n = looseNetwork(fields.network);
  if (n !== undefined) out.network = n;
  const version = appVersion.safeParse(typeof fields.appVersion === 'number' ? String(fields.appVersion) : fields.appVersion);
  if (version.success) out.appVersion = version.data;
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * capcom6 SMS Gateway for Android's `system:ping` payload: `{health: {checks: {"battery:level":
 * {observedValue}, "battery:charging": {observedValue}, "connection:status", "connection:transport"}}}`
 * (modules/health/monitors), read where present.
 */
export function capcomTelemetry(payload: unknown): Record<string, unknown> {
  const checks = isRecord(payload) && isRecord(payload.health) && isRecord(payload.health.checks) ? payload.health.checks : {};
  const value = (key: string) => (isRecord(checks[key]) ? (checks[key] as Record<string, unknown>).observedValue : undefined);
  return { battery: value('battery:level'), charging: value('battery:charging') };
}
