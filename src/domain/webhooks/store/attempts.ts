import type { PrismaClient } from '../../../db/prisma.js';

/** The endpoint's attempts started after `since` (of deliveries tried since then), and how many got a 2xx: one aggregate. */
export async function attemptCountsSince(prisma: PrismaClient, endpointId: string, since: Date): Promise<{ attempts: bigint; succeeded: bigint } | undefined> {
  const [row] = await prisma.$queryRaw<{ attempts: bigint; succeeded: bigint }[]>`
    SELECT count(*) AS attempts, count(*) FILTER (WHERE a.response_status BETWEEN 200 AND 299) AS succeeded
    FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
    WHERE d.endpoint_id = ${endpointId}::uuid AND d.last_attempt_at > ${since} AND a.started_at > ${since}`;
  return row;
}
