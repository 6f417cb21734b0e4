import { randomInt } from 'node:crypto';

/**
 * A random code whose final amount is not held in the scope, or null when every code is taken.
 * Random rather than sequential, so the next payer's amount cannot be guessed.
 */
export function pickFreeCode(amountRequested: bigint, maxCode: number, heldAmounts: Iterable<bigint>): number | null {
  const taken = new Set<number>();
  for (const amount of heldAmounts) {
    const code = Number(amount - amountRequested);
    if (code >= 10 && code <= 10 * maxCode && code % 10 === 0) taken.add(code);
  }
  const free = maxCode - taken.size;
  if (free <= 0) return null;
  let skip = randomInt(free);
  for (let code = 10; code <= 10 * maxCode; code += 10) {
    if (taken.has(code)) continue;
    if (skip === 0) return code;
    skip--;
  }
  return null;
}
