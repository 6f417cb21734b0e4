import type { Tx } from '../../db/prisma.js';
import { AppError } from '../../errors.js';

/**
 * Card choice itself runs in the database: the `create_payment` SQL function (migration
 * 20261124060000) lists the project's active cards least recently used first, keeps those whose
 * device is online (sandbox: any), takes each card's match-scope lock (first the scopes nobody is
 * allocating in, then waiting for the busy ones), re-reads the card's device under FOR SHARE (a
 * card moved meanwhile is skipped), checks today's caps (Tehran day) and draws a free random code.
 * The lock is held for that one statement. Here: the names and errors it shares with the rest.
 */
export type UnavailableReason = 'no_active_card' | 'device_offline' | 'daily_amount_cap_reached' | 'daily_count_cap_reached' | 'codes_exhausted';

/** The match scope of the cards one phone forwards SMS for: amounts held there are unique. */
export function deviceScope(deviceId: string): string {
  return `device:${deviceId}`;
}

/** Where a card's deposits are read: its device's SMS, or the card alone when it has no device. */
export function matchScope(card: { id: string; device_id: string | null }): string {
  return card.device_id ? deviceScope(card.device_id) : `card:${card.id}`;
}

/** Serialises allocation, matching-scope moves and code choice within one match scope, until commit. */
export async function lockMatchScope(tx: Tx, scope: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${scope}, 0))`;
}

type RaisedError = { code?: unknown; detail?: unknown };

/** The create function's refusals (custom SQLSTATEs GW402, GW422, GW503) as catalog errors. */
export function allocationError(err: unknown, callbackHost: string | null): AppError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, detail } = err as RaisedError;
  if (code === 'GW402') return new AppError('merchant_credit_exhausted');
  if (code === 'GW422') {
    return new AppError('callback_host_not_allowed', undefined, { host: callbackHost, allowedHosts: JSON.parse(String(detail)) as string[] });
  }
  if (code === 'GW503') {
    const reasons = String(detail ?? '').split(',').filter(Boolean) as UnavailableReason[];
    return new AppError('no_card_available', `No card can take this payment now (${reasons.join(', ')}).`, { reasons });
  }
  return undefined;
}
