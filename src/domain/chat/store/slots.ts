import type { PrismaClient } from '../../../db/prisma.js';

/**
 * Reserves the next send slot of a key (a chat, a bot): how long (ms) until this message may go,
 * each slot `spacingMs` after the one before, across every process (one row per key).
 */
export async function reserveSlot(db: PrismaClient, key: string, spacingMs: number): Promise<number> {
  const [row] = await db.$queryRaw<{ wait_ms: number }[]>`
    INSERT INTO chat_send_slots AS s (key, next_at) VALUES (${key}, clock_timestamp() + ${spacingMs} * interval '1 millisecond')
    ON CONFLICT (key) DO UPDATE SET next_at = greatest(s.next_at, clock_timestamp()) + ${spacingMs} * interval '1 millisecond'
    RETURNING greatest(0, extract(epoch FROM (s.next_at - clock_timestamp())) * 1000 - ${spacingMs})::float8 AS wait_ms`;
  return row!.wait_ms;
}

/** Holds a key for `ms` from now (a 429's retry_after): slots reserved before are not used until then either. */
export async function holdSlot(db: PrismaClient, key: string, ms: number): Promise<void> {
  await db.$executeRaw`
    INSERT INTO chat_send_slots AS s (key, next_at, held_until)
    VALUES (${key}, clock_timestamp() + ${ms} * interval '1 millisecond', clock_timestamp() + ${ms} * interval '1 millisecond')
    ON CONFLICT (key) DO UPDATE SET next_at = greatest(s.next_at, EXCLUDED.next_at), held_until = greatest(s.held_until, EXCLUDED.held_until)`;
}

/** How long any of the keys is still held by a 429 (ms; 0 when none is). */
export async function heldFor(db: PrismaClient, keys: string[]): Promise<number> {
  const [row] = await db.$queryRaw<{ ms: number | null }[]>`
    SELECT max(extract(epoch FROM (held_until - clock_timestamp())) * 1000)::float8 AS ms FROM chat_send_slots WHERE key = ANY (${keys}) AND held_until > clock_timestamp()`;
  return Math.max(0, row?.ms ?? 0);
}
