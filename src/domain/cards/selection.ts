import type { Tx } from '../../db/prisma.js';
import { pickFreeCode } from '../codes/codes.js';
import { DEVICE_ONLINE_MS } from '../devices/heartbeat.js';

export type UnavailableReason = 'no_active_card' | 'device_offline' | 'daily_amount_cap_reached' | 'daily_count_cap_reached' | 'codes_exhausted';

type CandidateCard = {
  id: string;
  device_id: string | null;
  daily_amount_cap: bigint | null;
  daily_count_cap: number | null;
  last_heartbeat_at: Date | null;
  device_revoked_at: Date | null;
};

export type Allocation = { cardId: string; scope: string; code: number; amountFinal: bigint };

/** Where a card's deposits are read: its device's SMS, or the card alone when it has no device. */
export function matchScope(card: { id: string; device_id: string | null }): string {
  return card.device_id ? `device:${card.device_id}` : `card:${card.id}`;
}

/** Start of today on the Tehran calendar, as the database sees it (caps count per Tehran day). */
const TEHRAN_DAY_START = `(date_trunc('day', now() AT TIME ZONE 'Asia/Tehran') AT TIME ZONE 'Asia/Tehran')`;

/**
 * Picks a card and a free code for a new payment, inside the creating transaction. Cards are tried
 * least recently used first; each try holds its match scope's advisory lock until commit, so caps
 * and free codes are read and claimed without a race (the unique index on live holds is the
 * backstop). Returns every reason that ruled cards out when none qualifies.
 */
export async function allocateCardAndCode(
  tx: Tx,
  project: { id: string; sandbox: boolean; maxCode: number },
  amountRequested: bigint,
  now: Date,
): Promise<Allocation | { reasons: UnavailableReason[] }> {
  const cards = await tx.$queryRaw<CandidateCard[]>`
    SELECT c.id, c.device_id, c.daily_amount_cap, c.daily_count_cap,
           d.last_heartbeat_at, d.revoked_at AS device_revoked_at
    FROM cards c LEFT JOIN devices d ON d.id = c.device_id
    WHERE c.project_id = ${project.id}::uuid AND c.active
    ORDER BY c.last_used_at ASC NULLS FIRST, c.created_at ASC, c.id ASC`;
  if (cards.length === 0) return { reasons: ['no_active_card'] };

  const reasons = new Set<UnavailableReason>();
  for (const card of cards) {
    if (!project.sandbox) {
      const online = card.device_id && !card.device_revoked_at && card.last_heartbeat_at && now.getTime() - card.last_heartbeat_at.getTime() <= DEVICE_ONLINE_MS;
      if (!online) {
        reasons.add('device_offline');
        continue;
      }
    }
    const scope = matchScope(card);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${scope}, 0))`;

    let spentToday = 0n;
    if (card.daily_amount_cap !== null || card.daily_count_cap !== null) {
      const [today] = await tx.$queryRawUnsafe<{ total: bigint; count: bigint }[]>(
        `SELECT coalesce(sum(amount_final), 0)::bigint AS total, count(*)::bigint AS count FROM payments
         WHERE card_id = $1::uuid AND status IN ('pending', 'confirmed') AND created_at >= ${TEHRAN_DAY_START}`,
        card.id,
      );
      if (card.daily_count_cap !== null && Number(today!.count) >= card.daily_count_cap) {
        reasons.add('daily_count_cap_reached');
        continue;
      }
      spentToday = today!.total;
    }

    // Holds past their late window are released here, inside the allocating transaction.
    await tx.$executeRaw`UPDATE amount_holds SET released_at = now() WHERE scope = ${scope} AND released_at IS NULL AND held_until <= now()`;
    const held = await tx.$queryRaw<{ amount: bigint }[]>`
      SELECT amount FROM amount_holds WHERE scope = ${scope} AND released_at IS NULL
        AND amount BETWEEN ${amountRequested + 10n} AND ${amountRequested + 10n * BigInt(project.maxCode)}`;
    const code = pickFreeCode(amountRequested, project.maxCode, held.map((h) => h.amount));
    if (code === null) {
      reasons.add('codes_exhausted');
      continue;
    }
    const amountFinal = amountRequested + BigInt(code);
    if (card.daily_amount_cap !== null && spentToday + amountFinal > card.daily_amount_cap) {
      reasons.add('daily_amount_cap_reached');
      continue;
    }
    return { cardId: card.id, scope, code, amountFinal };
  }
  return { reasons: [...reasons] };
}
