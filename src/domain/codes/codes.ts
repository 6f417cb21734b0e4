import { randomInt } from 'node:crypto';

/**
 * The random numbers for one create's code draw (`draw_code`, in src/domain/codes/sql/draw_code.sql,
 * which picks one of the ten smallest free codes of the amount with the first). Drawn here because
 * Postgres' random() is not a cryptographic generator: the next payer's code must not be guessable.
 */
export function codeDraws(): string[] {
  return [String(randomInt(0, 2 ** 32))];
}
