import { AppError } from '../../errors.js';

/**
 * Card choice and the daily and monthly caps run in the database, in the `create_payment` SQL function
 * (src/domain/payments/sql/create_payment.sql), whose header lists the rules it owns. Here: the
 * names and errors it shares with the rest, and the match scope for the flows.
 */
export type UnavailableReason =
  | 'no_active_card'
  | 'device_offline'
  | 'daily_amount_cap_reached'
  | 'daily_count_cap_reached'
  | 'monthly_amount_cap_reached'
  | 'monthly_count_cap_reached'
  | 'codes_exhausted';

// The match scope is owned by SQL `match_scope` (src/domain/cards/sql/match_scope.sql). The flows
// key their hold lookups by it before any statement runs, so it is stated here once more, and
// test/db/rule-owners.test.ts holds the two equal.

/** The match scope of the cards one phone forwards SMS for: amounts held there are unique. */
export function deviceScope(deviceId: string): string {
  return `device:${deviceId}`;
}

/** Where a card's deposits are read: its device's SMS, or the card alone when it has no device. */
export function matchScope(card: { id: string; device_id: string | null }): string {
  return card.device_id ? deviceScope(card.device_id) : `card:${card.id}`;
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
