import { describe, expect, it } from 'vitest';
import { gapAmount, gapEnds, type HeldMessage } from '../../src/domain/bank-messages/gaps.js';

// The pure gap rules (src/domain/bank-messages/gaps.ts): which held messages end a gap, and its amount.
const t0 = Date.UTC(2026, 10, 29, 8, 0);
const held = (id: string, amount: bigint, balance: bigint, minute: number, arrived: number, direction: 'deposit' | 'withdrawal' = 'deposit'): HeldMessage => ({
  id,
  direction,
  amount,
  balance,
  at: new Date(t0 + minute * 60_000),
  arrivedAt: new Date(t0 + arrived * 1_000),
});

describe('gap ends', () => {
  it('a held message that follows another held one waits behind its gap, whichever arrived first', () => {
    const c = held('c', 100n, 1_300n, 2, 2);
    const d = held('d', 50n, 1_350n, 3, 1);
    expect(gapEnds([d, c]).map((m) => m.id)).toEqual(['c']);
    expect(gapEnds([c, d]).map((m) => m.id)).toEqual(['c']);
  });

  it('a re-sent copy is one place: the first to arrive stands for it', () => {
    const c = held('c', 100n, 1_300n, 2, 1);
    const copy = held('c2', 100n, 1_300n, 2, 5);
    expect(gapEnds([copy, c]).map((m) => m.id)).toEqual(['c']);
  });

  it('two unrelated held messages are two gaps; an earlier message never waits behind a later one', () => {
    const a = held('a', 100n, 1_300n, 2, 1);
    const b = held('b', 70n, 5_000n, 4, 2);
    const before = held('x', 30n, 1_400n, 1, 3);
    expect(new Set(gapEnds([a, b]).map((m) => m.id))).toEqual(new Set(['a', 'b']));
    // 1,400 = 1,300 + 100 would follow a, but it is earlier in the bank's order.
    expect(gapEnds([a, before]).map((m) => m.id).sort()).toEqual(['a', 'x']);
  });

  it('the amount is the balance before the end’s own movement, less the reference: positive for missing deposits', () => {
    expect(gapAmount({ balance: 1_000n }, held('c', 100n, 1_300n, 2, 1))).toBe(200n);
    expect(gapAmount({ balance: 1_000n }, held('w', 100n, 700n, 2, 1, 'withdrawal'))).toBe(-200n);
  });
});
