import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';
import { stampEveryMs } from './health.js';
import { stampSeen } from './store/presence.js';
import { writeTelemetry } from './store/telemetry.js';
import type { Telemetry } from './telemetry.js';
import { reportOnline } from './transitions.js';

/**
 * Any authenticated request of a device marks it seen (`last_heartbeat_at`, read by card choice);
 * one that posts SMS also stamps `last_message_at`. The WHERE makes it at most one written row per
 * device per few seconds, so most calls update nothing and take no row lock. A device that had
 * been reported offline is reported online here, at once. clock_timestamp(), not now(): a stamp that
 * waited for the sweep's row lock must land after the `offline_since` that sweep wrote.
 */
export async function markSeen(deps: Deps, actor: Actor, opts: { sms: boolean }): Promise<void> {
  const { deviceId } = requireActor(actor, 'device');
  const everyMs = stampEveryMs(deps.config);
  const rows = await stampSeen(deps.prisma, deviceId, opts.sms, everyMs);
  if (rows[0]?.offline_since) await reportOnline(deps, deviceId);
}

/**
 * A heartbeat with its telemetry (telemetry.ts). The device is seen first, whatever the body says:
 * a heartbeat whose optional fields are wrong is still a heartbeat; then a wrong field is refused
 * (400 naming it) and nothing of the telemetry is written.
 */
export async function heartbeat(deps: Deps, actor: Actor, read: () => Telemetry): Promise<void> {
  const { deviceId } = requireActor(actor, 'device');
  await markSeen(deps, actor, { sms: false });
  await writeTelemetry(deps.prisma, deviceId, read());
}
