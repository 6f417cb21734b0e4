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

/** Serialises allocation, matching-scope moves and code choice within one match scope, until commit. */
export async function lockMatchScope(tx: Tx, scope: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${scope}, 0))`;
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
  const eligible = cards.filter((card) => {
    if (project.sandbox) return true;
    const online = card.device_id && !card.device_revoked_at && card.last_heartbeat_at && now.getTime() - card.last_heartbeat_at.getTime() <= DEVICE_ONLINE_MS;
    if (!online) reasons.add('device_offline');
    return Boolean(online);
  });

  // First the cards whose scope nobody is allocating in right now, then wait for the busy ones:
  // concurrent creates spread over cards instead of queueing behind the least recently used.
  const busy: CandidateCard[] = [];
  for (const card of eligible) {
    const [lock] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtextextended(${matchScope(card)}, 0)) AS ok`;
    if (!lock?.ok) {
      busy.push(card);
      continue;
    }
    const result = await claimOnCard(tx, card, project.maxCode, amountRequested);
    if (typeof result !== 'string') return result;
    reasons.add(result);
  }
  for (const card of busy) {
    await lockMatchScope(tx, matchScope(card));
    const result = await claimOnCard(tx, card, project.maxCode, amountRequested);
    if (typeof result !== 'string') return result;
    reasons.add(result);
  }
  return { reasons: [...reasons] };
}

/** With the card's scope lock held: its caps for today and a free code, or why not. */
async function claimOnCard(tx: Tx, card: CandidateCard, maxCode: number, amountRequested: bigint): Promise<Allocation | UnavailableReason> {
  const scope = matchScope(card);
  let spentToday = 0n;
  if (card.daily_amount_cap !== null || card.daily_count_cap !== null) {
    const [today] = await tx.$queryRawUnsafe<{ total: bigint; count: bigint }[]>(
      `SELECT coalesce(sum(amount_final), 0)::bigint AS total, count(*)::bigint AS count FROM payments
       WHERE card_id = $1::uuid AND status IN ('pending', 'confirmed') AND created_at >= ${TEHRAN_DAY_START}`,
      card.id,
    );
    if (card.daily_count_cap !== null && Number(today!.count) >= card.daily_count_cap) return 'daily_count_cap_reached';
    spentToday = today!.total;
  }
  // Holds past their late window are released here, inside the allocating transaction, in the same
  // statement that reads the live ones (one round trip under the lock).
  // The card row is share-locked and its device read again: a card moved to another device since the
  // candidates were listed is skipped (its holds now live in the other scope).
  const [held] = await tx.$queryRaw<{ device_id: string | null; amounts: bigint[] }[]>`
    WITH released AS (
      UPDATE amount_holds SET released_at = now() WHERE scope = ${scope} AND released_at IS NULL AND held_until <= now() RETURNING payment_id
    )
    SELECT (SELECT device_id FROM cards WHERE id = ${card.id}::uuid FOR SHARE) AS device_id,
           array(SELECT amount FROM amount_holds WHERE scope = ${scope} AND released_at IS NULL AND held_until > now()
                   AND amount BETWEEN ${amountRequested + 10n} AND ${amountRequested + 10n * BigInt(maxCode)}) AS amounts`;
  if (!held || held.device_id !== card.device_id) return 'device_offline';
  const code = pickFreeCode(amountRequested, maxCode, held.amounts.map(BigInt));
  if (code === null) return 'codes_exhausted';
  const amountFinal = amountRequested + BigInt(code);
  if (card.daily_amount_cap !== null && spentToday + amountFinal > card.daily_amount_cap) return 'daily_amount_cap_reached';
  return { cardId: card.id, scope, code, amountFinal };
}
