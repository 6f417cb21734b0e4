import type { PrismaClient } from '../../../db/prisma.js';
import type { Telemetry } from '../telemetry.js';

/** Writes the telemetry a heartbeat carried; a field it did not carry keeps its last reading. */
export async function writeTelemetry(prisma: PrismaClient, deviceId: string, t: Telemetry): Promise<void> {
  if (Object.keys(t).length === 0) return;
  await prisma.device.update({ where: { id: deviceId }, data: t });
}
