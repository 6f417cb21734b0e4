import type { PrismaClient } from '../../../db/prisma.js';

/**
 * A bot's poller lease (one row per platform): taken when free, lapsed or already the holder's,
 * for `seconds`. Returns the update offset to poll from, or null while another holds it.
 */
export async function takeLease(db: PrismaClient, platform: string, holder: string, seconds: number): Promise<bigint | null> {
  const [row] = await db.$queryRaw<{ update_offset: bigint }[]>`
    INSERT INTO chat_pollers AS c (platform, holder, expires_at) VALUES (${platform}, ${holder}, now() + ${seconds} * interval '1 second')
    ON CONFLICT (platform) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
      WHERE c.holder = EXCLUDED.holder OR c.expires_at < now()
    RETURNING update_offset`;
  return row ? row.update_offset : null;
}

/** Renews the holder's lease; false when it is no longer the holder's. */
export async function renewLease(db: PrismaClient, platform: string, holder: string, seconds: number): Promise<boolean> {
  const renewed = await db.$executeRaw`
    UPDATE chat_pollers SET expires_at = now() + ${seconds} * interval '1 second' WHERE platform = ${platform} AND holder = ${holder}`;
  return renewed === 1;
}
