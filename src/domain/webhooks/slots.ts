import type { PrismaClient } from '../../db/prisma.js';
import type { Deps } from '../deps.js';
import { renewSlotLease, takeFreeSlot, type SlotHolder } from './store/slots.js';

// A slot's lease is short and its holder renews it while the attempt runs (an attempt may take the
// whole 10 s request timeout): a worker killed mid-attempt leaves slots that free within
// LEASE_SECONDS, and a live holder survives two missed renewals.
const LEASE_SECONDS = 5;
const RENEW_MS = 1_500;
// A taker that waits for a slot (a manual send) looks again this often.
const WAIT_POLL_MS = 200;

type SlotDeps = Pick<Deps, 'prisma' | 'log'>;

/**
 * Runs `send` holding one of the endpoint's `limit` in-flight slots, or returns null without
 * running it when every slot stayed held for `waitMs`. The lease lives in Postgres, so the limit
 * holds across every process (pg-boss groups only count one process's jobs); `holderId` (the
 * delivery) names the holder, so only it renews or gives back its slot.
 */
export async function withEndpointSlot<T>(deps: SlotDeps, holder: SlotHolder, send: () => Promise<T>, waitMs = 0): Promise<{ value: T } | null> {
  const slot = await takeWithin(deps.prisma, holder, waitMs);
  if (slot === null) return null;
  const renewal = setInterval(() => {
    renewSlotLease(deps.prisma, holder, slot, LEASE_SECONDS).catch((err: unknown) => deps.log.warn({ err, ...holder, slot }, 'webhook slot: lease not renewed'));
  }, RENEW_MS);
  try {
    return { value: await send() };
  } finally {
    clearInterval(renewal);
    await releaseEndpointSlot(deps.prisma, holder, slot);
  }
}

async function takeWithin(prisma: PrismaClient, holder: SlotHolder, waitMs: number): Promise<number | null> {
  const until = Date.now() + waitMs;
  for (;;) {
    const slot = await takeEndpointSlot(prisma, holder);
    if (slot !== null || Date.now() + WAIT_POLL_MS > until) return slot;
    await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
  }
}

/** One free slot, or null when all are held. */
async function takeEndpointSlot(prisma: PrismaClient, holder: SlotHolder): Promise<number | null> {
  // A taker that lost a slot to a concurrent one looks again: the next statement sees the winner's
  // row and picks another free slot, if there is one.
  for (let tries = 0; tries < holder.limit; tries++) {
    const slot = await takeFreeSlot(prisma, holder, LEASE_SECONDS);
    if (slot !== null || !(await hasFreeSlot(prisma, holder))) return slot;
  }
  return null;
}

async function hasFreeSlot(prisma: PrismaClient, { endpointId, limit }: SlotHolder): Promise<boolean> {
  const held = await prisma.webhookEndpointSlot.count({ where: { endpointId, slot: { lt: limit }, leasedUntil: { gt: new Date() } } });
  return held < limit;
}

/** Gives the slot back; only its holder can. */
async function releaseEndpointSlot(prisma: PrismaClient, { endpointId, holderId }: SlotHolder, slot: number): Promise<void> {
  await prisma.webhookEndpointSlot.deleteMany({ where: { endpointId, slot, deliveryId: holderId } });
}
