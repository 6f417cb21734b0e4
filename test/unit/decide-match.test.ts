import { describe, expect, it } from 'vitest';
import { CREATED_BEFORE_SLACK_MS, decideMatch, type Deposit, type MatchCandidate } from '../../src/domain/matching/decide-match.js';

// The pure matching decision (src/domain/matching/decide-match.ts), called without a database:
// one decision for real and simulated deposits, for arrivals and for re-matches.
const at = new Date('2026-11-25T10:00:00.000Z');
const deposit = (over: Partial<Deposit> = {}): Deposit => ({ amount: 100_010n, at, simulated: false, review: null, ...over });
const candidate = (id: string, over: Partial<MatchCandidate> = {}): MatchCandidate => ({
  id,
  cardId: 'card-1',
  projectId: 'project-1',
  sandbox: false,
  createdAt: new Date(at.getTime() - 60_000),
  stateRefusal: null,
  ...over,
});
const cardIds = ['card-1'];

describe('decideMatch', () => {
  it('given the payment holding exactly the amount and nothing else, when a real deposit arrives, then it confirms that payment', () => {
    expect(decideMatch({ deposit: deposit(), cardIds, exact: candidate('p1'), base: [] })).toEqual({ kind: 'confirm', payment: candidate('p1') });
  });

  it('given failed evidence, then the exact payment is held for review with the evidence reason', () => {
    const review = { reason: 'balance_mismatch' as const, detail: 'the balance does not follow' };
    const decision = decideMatch({ deposit: deposit({ review }), cardIds, exact: candidate('p1'), base: [] });
    expect(decision).toMatchObject({ kind: 'review', flag: ['p1'], reason: 'balance_mismatch', payment: { id: 'p1' } });
  });

  it('given the amount is also another payment’s amount without code, then both wait for a person (never guessed)', () => {
    const decision = decideMatch({ deposit: deposit(), cardIds, exact: candidate('p1'), base: [candidate('p2')] });
    expect(decision).toMatchObject({ kind: 'review', flag: ['p1', 'p2'], reason: 'ambiguous_deposit' });
  });

  it('given only one payment whose amount without code is the deposit, then amount_without_code; several: ambiguous_deposit with no payment', () => {
    expect(decideMatch({ deposit: deposit(), cardIds, exact: null, base: [candidate('p2')] })).toMatchObject({ kind: 'review', reason: 'amount_without_code', payment: { id: 'p2' } });
    expect(decideMatch({ deposit: deposit(), cardIds, exact: null, base: [candidate('p2'), candidate('p3')] })).toMatchObject({ kind: 'review', reason: 'ambiguous_deposit', payment: null, flag: ['p2', 'p3'] });
  });

  it.each([
    ['a sandbox payment and real money', { sandbox: true }, {}, 'real money never confirms'],
    ['a live payment and a simulation', {}, { simulated: true }, 'a simulation never confirms'],
    ['a payment on another card', { cardId: 'card-2' }, {}, 'on another card'],
    ['a payment created after the deposit', { createdAt: new Date(at.getTime() + CREATED_BEFORE_SLACK_MS + 1) }, {}, 'created after the deposit'],
    ['a payment the state machine refuses', { stateRefusal: 'its late-confirmation window has ended' }, {}, 'late-confirmation window has ended'],
  ])('given the exact holder is %s, then the deposit is unmatched and says why', (_, over, dep, why) => {
    const decision = decideMatch({ deposit: deposit(dep), cardIds, exact: candidate('p1', over), base: [] });
    expect(decision.kind).toBe('unmatched');
    expect(decision.kind === 'unmatched' && decision.statusReason).toContain(why);
  });

  it('given nothing holds the amount, then unmatched', () => {
    expect(decideMatch({ deposit: deposit(), cardIds, exact: null, base: [] })).toEqual({ kind: 'unmatched', statusReason: 'No open payment holds the amount 100010.' });
  });
});
