import { z } from 'zod';
import { latinDigits } from '../validation.js';

/**
 * A payment card number (PAN): 16 digits whose last is the Luhn check digit of the others. Cards a
 * merchant receives on are not held to it (docs/decisions.md: some issuers' test numbers fail it);
 * a card someone is paid back to is.
 */
export function isValidCardNumber(s: string): boolean {
  if (!/^[0-9]{16}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    // From the right, every second digit is doubled; a two-digit result counts its digits.
    let d = Number(s[s.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** A card number as people write it: spaces and dashes dropped, Persian digits read; 16 Latin digits stored. */
export const cardNumberSchema = z
  .string()
  .transform((s) => latinDigits(s).replace(/[\s-]/g, ''))
  .refine(isValidCardNumber, 'must be 16 digits with a valid check digit (Luhn)');
