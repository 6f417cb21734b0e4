import type { PrismaClient } from '../../../db/prisma.js';

/**
 * An endpoint's in-flight slots (slots.ts decides when to take, renew and give them back): leases
 * in `webhook_endpoint_slots`, taken and renewed by the database's clock in one statement each.
 */

export type SlotHolder = { endpointId: string; holderId: string; limit: number };

/** Takes the lowest slot under `limit` whose lease has lapsed (or never was), for `leaseSeconds`; null when none was free. */
export async function takeFreeSlot(prisma: PrismaClient, { endpointId, holderId, limit }: SlotHolder, leaseSeconds: number): Promise<number | null> {
  const rows = await prisma.$queryRaw<{ slot: number }[]>`
    INSERT INTO webhook_endpoint_slots AS s (endpoint_id, slot, delivery_id, leased_until)
    SELECT ${endpointId}::uuid, n, ${holderId}::uuid, now() + make_interval(secs => ${leaseSeconds})
    FROM generate_series(0, ${limit}::int - 1) AS n
    WHERE NOT EXISTS (
      SELECT 1 FROM webhook_endpoint_slots h WHERE h.endpoint_id = ${endpointId}::uuid AND h.slot = n AND h.leased_until > now()
    )
    ORDER BY n
    LIMIT 1
    ON CONFLICT (endpoint_id, slot) DO UPDATE SET delivery_id = EXCLUDED.delivery_id, leased_until = EXCLUDED.leased_until
      WHERE s.leased_until <= now()
    RETURNING slot`;
  return rows[0]?.slot ?? null;
}

/** Extends the holder's lease by `leaseSeconds` from now; a lease that lapsed and was re-taken is someone else's now and stays so. */
export async function renewSlotLease(prisma: PrismaClient, { endpointId, holderId }: Pick<SlotHolder, 'endpointId' | 'holderId'>, slot: number, leaseSeconds: number): Promise<void> {
  await prisma.$executeRaw`
    UPDATE webhook_endpoint_slots SET leased_until = now() + make_interval(secs => ${leaseSeconds})
    WHERE endpoint_id = ${endpointId}::uuid AND slot = ${slot} AND delivery_id = ${holderId}::uuid`;
}
