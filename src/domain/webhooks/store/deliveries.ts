import type { Tx } from '../../../db/prisma.js';

/** Locks one delivery's row until commit: its attempts are recorded one after another. */
export async function lockDeliveryRow(tx: Tx, deliveryId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE id = ${deliveryId}::uuid FOR UPDATE`;
}
