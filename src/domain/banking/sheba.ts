import { z } from 'zod';
import { latinDigits } from '../validation.js';

/**
 * An Iranian account's IBAN (sheba, ISO 13616): `IR`, two check digits, then 22 digits. The check
 * digits are right when the number, with its first four characters moved to the end and letters as
 * two digits each (A = 10 … Z = 35), leaves 1 modulo 97.
 */
const SHEBA = /^IR[0-9]{24}$/;

/** The remainder modulo 97 of a string of digits, read a few at a time (too long for a number). */
function mod97(digits: string): number {
  let rest = 0;
  for (let i = 0; i < digits.length; i += 7) rest = Number(`${rest}${digits.slice(i, i + 7)}`) % 97;
  return rest;
}

const letterDigits = (s: string) => s.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));

export function isValidSheba(s: string): boolean {
  if (!SHEBA.test(s)) return false;
  return mod97(letterDigits(s.slice(4) + s.slice(0, 4))) === 1;
}

/**
 * A sheba as people write it: spaces and dashes dropped, Persian digits read, `ir` in any case;
 * stored as `IR` + 24 Latin digits.
 */
export const shebaSchema = z
  .string()
  .transform((s) => latinDigits(s).replace(/[\s-]/g, '').toUpperCase())
  .refine(isValidSheba, 'must be IR followed by 24 digits with valid check digits (ISO 13616)');
