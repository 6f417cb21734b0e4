/**
 * Likely matches for what the engine could not decide (docs/exceptions.md "What you see"): for a
 * deposit, the payments it could be; for a payment, the deposits that could be its money. One rule
 * for both directions, `candidateReason`, over the amounts; the store reads the rows it applies to.
 */

export const CANDIDATE_REASONS = ['exact', 'base_amount', 'unit_slip', 'near_amount'] as const;
export type CandidateReason = (typeof CANDIDATE_REASONS)[number];

/** A candidate must have been created at most this long before the deposit's bank time. */
export const CANDIDATE_WINDOW_MS = 48 * 60 * 60 * 1000;
/** At most this many candidates, best first. */
export const CANDIDATE_LIMIT = 5;
/** `near_amount`: within this share of the payment's amount (10 %). */
const NEAR_NUMERATOR = 1n;
const NEAR_DENOMINATOR = 10n;

type Amounts = { amountFinal: bigint; amountRequested: bigint };

const within = (deposit: bigint, of: bigint) => {
  const diff = deposit > of ? deposit - of : of - deposit;
  return diff * NEAR_DENOMINATOR <= of * NEAR_NUMERATOR;
};

/** Why a deposit of `deposit` rials could be this payment's money, or null when it could not. */
export function candidateReason(deposit: bigint, p: Amounts): CandidateReason | null {
  if (deposit === p.amountFinal) return 'exact';
  if (deposit === p.amountRequested) return 'base_amount';
  // The payer mixed toman and rial: ten times, or a tenth of, either amount.
  for (const a of [p.amountFinal, p.amountRequested]) if (deposit === a * 10n || deposit * 10n === a) return 'unit_slip';
  if (within(deposit, p.amountFinal) || within(deposit, p.amountRequested)) return 'near_amount';
  return null;
}

/**
 * The amounts a store query must consider for a deposit of `deposit` rials, as a range and a set
 * (a superset: `candidateReason` decides): payments whose final or requested amount is in it.
 */
export function paymentAmountFilter(deposit: bigint): { min: bigint; max: bigint; slips: bigint[] } {
  // |deposit − a| ≤ a/10  ⇔  10·deposit/11 ≤ a ≤ 10·deposit/9
  return { min: (deposit * 10n) / 11n, max: (deposit * 10n + 8n) / 9n, slips: [deposit * 10n, ...(deposit % 10n === 0n ? [deposit / 10n] : [])] };
}

/** For a payment, the deposit amounts a store query must consider (a superset, as above). */
export function depositAmountFilter(p: Amounts): { min: bigint; max: bigint; slips: bigint[] } {
  const lo = p.amountRequested < p.amountFinal ? p.amountRequested : p.amountFinal;
  const hi = p.amountRequested < p.amountFinal ? p.amountFinal : p.amountRequested;
  const slips = [p.amountFinal, p.amountRequested].flatMap((a) => [a * 10n, ...(a % 10n === 0n ? [a / 10n] : [])]);
  return { min: lo - lo / 10n, max: hi + hi / 10n, slips };
}

/** Best first: by reason, then the closest in time to the deposit, then by id (stable). */
export function rankCandidates<T extends { reason: CandidateReason; distanceMs: number; id: string }>(list: T[]): T[] {
  const rank = (r: CandidateReason) => CANDIDATE_REASONS.indexOf(r);
  return [...list].sort((a, b) => rank(a.reason) - rank(b.reason) || a.distanceMs - b.distanceMs || a.id.localeCompare(b.id)).slice(0, CANDIDATE_LIMIT);
}
