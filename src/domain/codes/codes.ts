import { randomInt } from 'node:crypto';

/**
 * How many crypto-random numbers a create hands to the code draw (`draw_code`, in
 * src/domain/codes/sql/draw_code.sql, which reads the count from the array): all but the last are
 * tried as codes (each a uniformly random multiple of `code_step()`, taken unless its amount is
 * held); the last picks among the free codes when every try was taken.
 */
const CODE_DRAWS = 9;

/**
 * The numbers for one create's code draw. Random rather than sequential, so the next payer's amount
 * cannot be guessed; drawn here because Postgres' random() is not a cryptographic generator.
 */
export function codeDraws(): string[] {
  return Array.from({ length: CODE_DRAWS }, () => String(randomInt(0, 2 ** 32)));
}
