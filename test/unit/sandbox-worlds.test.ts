import { describe, expect, it } from 'vitest';
import { attachRefusal, type AttachMessage, type AttachPayment } from '../../src/domain/matching/decide-attach.js';
import { exactRefusal, type Deposit, type MatchCandidate } from '../../src/domain/matching/decide-match.js';
import { worldMismatch } from '../../src/domain/sandbox/worlds.js';

// One rule for matching and the merchant's attach: a real message settles live payments only, a
// simulated one sandbox payments only (src/domain/sandbox/worlds.ts).
const at = new Date('2026-11-28T10:00:00Z');
const candidate = (sandbox: boolean): MatchCandidate => ({ id: 'p1', cardId: 'c1', projectId: 'pr1', sandbox, createdAt: at, stateRefusal: null });
const deposit = (simulated: boolean): Deposit => ({ amount: 100_010n, at, simulated, review: null });
const message = (simulated: boolean): AttachMessage => ({ status: 'unmatched', direction: 'deposit', amount: 100_010n, simulated, merchantId: 'm1' });
const payment = (sandbox: boolean): AttachPayment => ({ status: 'pending', sandbox, merchantId: 'm1', amountFinal: 100_010n, amountRequested: 100_000n });

describe('real money and simulations never meet', () => {
  it.each([
    [false, false, null],
    [true, true, null],
    [true, false, 'simulation_for_live'],
    [false, true, 'real_money_for_sandbox'],
  ] as const)('simulated %s, sandbox %s → %s', (simulated, sandbox, expected) => {
    expect(worldMismatch({ simulated }, { sandbox })).toBe(expected);
  });

  it.each([
    [false, false],
    [true, true],
    [true, false],
    [false, true],
  ])('matching and attach agree for simulated %s, sandbox %s', (simulated, sandbox) => {
    const refusedByMatch = exactRefusal(candidate(sandbox), deposit(simulated), ['c1']) !== null;
    const refusedByAttach = attachRefusal(message(simulated), payment(sandbox), false) !== null;
    expect(refusedByMatch).toBe(simulated !== sandbox);
    expect(refusedByAttach).toBe(simulated !== sandbox);
  });
});
