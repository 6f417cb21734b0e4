import type { PrismaClient } from '../../db/prisma.js';

// Longer than the 10 s request timeout plus recording the attempt, so a live holder never loses
// its slot; short enough that a slot of a worker killed mid-attempt comes back soon.
const LEASE_SECONDS = 30;

/**
 * Takes one of the endpoint's `limit` in-flight slots for this delivery, or returns null when all
 * are held. The lease lives in Postgres, so the limit holds across every worker process (pg-boss
 * groups only count one process's jobs).
 */
export async function takeEndpointSlot(prisma: PrismaClient, endpointId: string, deliveryId: string, limit: number): Promise<number | null> {
  // A taker that lost a slot to a concurrent one looks again: the next statement sees the winner's
  // row and picks another free slot, if there is one.
  for (let tries = 0; tries < limit; tries++) {
    const slot = await tryTake(prisma, endpointId, deliveryId, limit);
    if (slot !== null || !(await hasFreeSlot(prisma, endpointId, limit))) return slot;
  }
  return null;
}

async function hasFreeSlot(prisma: PrismaClient, endpointId: string, limit: number): Promise<boolean> {
  const held = await prisma.webhookEndpointSlot.count({ where: { endpointId, slot: { lt: limit }, leasedUntil: { gt: new Date() } } });
  return held < limit;
}

async function tryTake(prisma: PrismaClient, endpointId: string, deliveryId: string, limit: number): Promise<number | null> {
  const rows = await prisma.$queryRaw<{ slot: number }[]>`
    INSERT INTO webhook_endpoint_slots AS s (endpoint_id, slot, delivery_id, leased_until)
    SELECT ${endpointId}::uuid, n, ${deliveryId}::uuid, now() + make_interval(secs => ${LEASE_SECONDS})
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

/** Gives the slot back; only its holder can, so a lease that lapsed and was re-taken stays taken. */
export async function releaseEndpointSlot(prisma: PrismaClient, endpointId: string, slot: number, deliveryId: string): Promise<void> {
  await prisma.webhookEndpointSlot.deleteMany({ where: { endpointId, slot, deliveryId } });
}
