import { describe, expect, it } from 'vitest';
import { amountSchema, parseWholeAmount, positiveRialsSchema, wholeAmountSchema } from '../../src/domain/banking/currency.js';

// One reading of a written amount (src/domain/banking/currency.ts); each schema keeps its own rule
// and the message the doors have always answered with.
const refusal = (schema: typeof amountSchema, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? null : r.error.issues.map((i) => i.message);
};

describe('reading a written amount', () => {
  it.each([
    [12_345, 12_345n],
    [-5, -5n],
    [' 12345 ', 12_345n],
    ['۱۲۳۴۵', 12_345n],
    ['١٢٣٤٥', 12_345n],
    ['1234567890123456', 1_234_567_890_123_456n],
    [7n, 7n],
  ] as const)('reads %s as %s', (written, rials) => {
    expect(parseWholeAmount(written)).toBe(rials);
  });

  it.each([[1.5], [2 ** 53], [Number.NaN], [''], ['-5'], ['+5'], ['1e5'], ['1,000'], ['12345678901234567']])('refuses %j', (written) => {
    expect(parseWholeAmount(written)).toBeNull();
  });
});

describe('each amount rule answers with its own message', () => {
  it('a payment amount in rials: unreadable, then out of range', () => {
    expect(amountSchema.parse('۱۰۰۰۰')).toBe(10_000n);
    expect(refusal(amountSchema, 'ten')).toEqual(['must be a whole number of rials (integer or string of digits)']);
    expect(refusal(amountSchema, -5)).toEqual(['must be between 10000 and 1000000000 rials']);
    expect(refusal(amountSchema, 1_000_000_001)).toEqual(['must be between 10000 and 1000000000 rials']);
  });

  it('a whole amount in the caller’s unit: zero or more', () => {
    expect(wholeAmountSchema.parse(0)).toBe(0n);
    expect(refusal(wholeAmountSchema, -1)).toEqual(['must be a whole amount (an integer or a string of digits)']);
    expect(refusal(wholeAmountSchema, '1.5')).toEqual(['must be a whole amount (an integer or a string of digits)']);
  });

  it('a refund: one rial or more', () => {
    expect(positiveRialsSchema.parse('٥')).toBe(5n);
    expect(refusal(positiveRialsSchema, 0)).toEqual(['must be a positive whole number of rials (integer or string of digits)']);
    expect(refusal(positiveRialsSchema, 'x')).toEqual(['must be a positive whole number of rials (integer or string of digits)']);
  });
});
