import { randomInt } from 'node:crypto';

/**
 * Crypto-random numbers for the code choice of the `create_payment` SQL function (migration
 * 20261124060000): its first eight are tried as codes (each a uniformly random multiple of 10 in
 * 10..10×maxCode, taken unless its amount is held), the ninth picks among the free codes when all
 * eight were taken. Random rather than sequential, so the next payer's amount cannot be guessed;
 * drawn here because Postgres' random() is not a cryptographic generator.
 */
export function codeDraws(): string[] {
  return Array.from({ length: 9 }, () => String(randomInt(0, 2 ** 32)));
}
