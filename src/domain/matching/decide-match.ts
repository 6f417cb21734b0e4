import type { EvidenceProblem, EvidenceReason } from '../bank-messages/evidence.js';
import { worldMismatch } from '../sandbox/worlds.js';

/**
 * What one deposit means, as a pure decision over the candidates the store read (match-deposit.ts
 * reads them and applies the decision). One decision for real and simulated deposits, for a
 * message arriving and for one matched again once its evidence is complete.
 */

export type ReviewReason = 'amount_without_code' | 'ambiguous_deposit' | EvidenceReason;

/** A deposit as the engine sees it, whether read from a real SMS or simulated. */
export type Deposit = {
  amount: bigint;
  /** When the money arrived: the bank's time, else the SMS's arrival. */
  at: Date;
  payerCardLast4?: string | null;
  /** Which payments it may confirm: live ones when real, sandbox ones when simulated (`worldMismatch`). */
  simulated: boolean;
  /** Evidence that failed (sender, bank, balance chain, format): the match is found but held for the merchant. */
  review?: EvidenceProblem | null;
};

/** A payment that could be this deposit's, with what the state machine says of confirming it now. */
export type MatchCandidate = { id: string; cardId: string; projectId: string; sandbox: boolean; createdAt: Date; stateRefusal: string | null };

export type MatchDecision =
  | { kind: 'confirm'; payment: MatchCandidate }
  | { kind: 'review'; flag: string[]; reason: ReviewReason; payment: MatchCandidate | null; statusReason: string }
  | { kind: 'unmatched'; statusReason: string };

/** A payment is a candidate only if it existed (give or take clock skew) when the money arrived. */
export const CREATED_BEFORE_SLACK_MS = 2 * 60 * 1000;

export const createdBefore = (deposit: Pick<Deposit, 'at'>) => new Date(deposit.at.getTime() + CREATED_BEFORE_SLACK_MS);

/** Why the payment holding exactly this amount cannot take this deposit, or null when it can. */
export function exactRefusal(exact: MatchCandidate, deposit: Deposit, cardIds: readonly string[]): string | null {
  const mismatch = worldMismatch(deposit, exact);
  if (mismatch === 'simulation_for_live') return 'is held by a live payment, which a simulation never confirms';
  if (mismatch === 'real_money_for_sandbox') return 'is held by a sandbox payment, which real money never confirms';
  if (!cardIds.includes(exact.cardId)) return 'is held by a payment on another card';
  if (exact.createdAt.getTime() > createdBefore(deposit).getTime()) return 'is held by a payment created after the deposit';
  if (exact.stateRefusal) return `is held by payment ${exact.id}, which cannot be confirmed: ${exact.stateRefusal}`;
  return null;
}

/**
 * The payment holding exactly the deposit's amount (`exact`, when it may take it) confirms, unless
 * the evidence failed (held with its reason) or the amount is also another pending payment's amount
 * without its code (`base`: a person decides; two candidates are never guessed between).
 */
export function decideMatch(input: { deposit: Deposit; cardIds: readonly string[]; exact: MatchCandidate | null; base: readonly MatchCandidate[] }): MatchDecision {
  const { deposit, base } = input;
  const refused = input.exact ? exactRefusal(input.exact, deposit, input.cardIds) : null;
  const exact = refused ? null : input.exact;
  const baseIds = base.map((b) => b.id);
  if (exact && base.length === 0) {
    if (deposit.review) return { kind: 'review', flag: [exact.id], reason: deposit.review.reason, payment: exact, statusReason: `Would confirm payment ${exact.id}, but: ${deposit.review.detail}` };
    return { kind: 'confirm', payment: exact };
  }
  if (exact) {
    return {
      kind: 'review',
      flag: [exact.id, ...baseIds],
      reason: 'ambiguous_deposit',
      payment: exact,
      statusReason: `The amount is exactly payment ${exact.id}'s and also the amount without code of ${baseIds.join(', ')}; a person must decide.`,
    };
  }
  if (base.length === 1) {
    return { kind: 'review', flag: baseIds, reason: 'amount_without_code', payment: base[0]!, statusReason: `The amount is payment ${base[0]!.id}'s requested amount without its code.` };
  }
  if (base.length > 1) {
    return { kind: 'review', flag: baseIds, reason: 'ambiguous_deposit', payment: null, statusReason: `The amount without code fits ${base.length} payments (${baseIds.join(', ')}); a person must decide.` };
  }
  return { kind: 'unmatched', statusReason: refused ? `The amount ${deposit.amount} ${refused}.` : `No open payment holds the amount ${deposit.amount}.` };
}
