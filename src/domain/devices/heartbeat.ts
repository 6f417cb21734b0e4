import { requireActor, type Actor } from '../auth/actor.js';
import type { Deps } from '../deps.js';

/** The device is online for card selection for 5 minutes after its last heartbeat. */
export const DEVICE_ONLINE_MS = 5 * 60 * 1000;

export async function recordHeartbeat(deps: Deps, actor: Actor): Promise<void> {
  const device = requireActor(actor, 'device');
  await deps.prisma.device.update({ where: { id: device.deviceId }, data: { lastHeartbeatAt: new Date() } });
}
