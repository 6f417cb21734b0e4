import { z } from 'zod';
import { AppError, type FieldError } from '../errors.js';

/** Checks input against a schema; every broken rule becomes one `details.fields` entry. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw AppError.invalid(toFieldErrors(result.error));
}

export function toFieldErrors(error: z.ZodError): FieldError[] {
  const seen = new Set<string>();
  const fields: FieldError[] = [];
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
    if (seen.has(field)) continue;
    seen.add(field);
    fields.push({ field, message: issue.message });
  }
  return fields;
}

const PERSIAN_ZERO = 0x06f0;
const ARABIC_INDIC_ZERO = 0x0660;

/** Persian (۰–۹) and Arabic-Indic (٠–٩) digits become Latin ones; nothing else changes. */
export function latinDigits(s: string): string {
  return s.replace(/[\u06f0-\u06f9\u0660-\u0669]/g, (ch) => {
    const cp = ch.codePointAt(0)!;
    return String(cp >= PERSIAN_ZERO ? cp - PERSIAN_ZERO : cp - ARABIC_INDIC_ZERO);
  });
}

export const AMOUNT_MIN = 10_000n;
export const AMOUNT_MAX = 1_000_000_000n;

/** An amount in rials: an integer or a string of digits (any script), as a bigint within bounds. */
export const amountSchema = z
  .union([z.number(), z.string(), z.bigint()])
  .transform((v, ctx): bigint => {
    let n: bigint | undefined;
    if (typeof v === 'bigint') n = v;
    else if (typeof v === 'number') n = Number.isSafeInteger(v) ? BigInt(v) : undefined;
    else {
      const s = latinDigits(v.trim());
      n = /^[0-9]{1,16}$/.test(s) ? BigInt(s) : undefined;
    }
    if (n === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be a whole number of rials (integer or string of digits)' });
      return z.NEVER;
    }
    if (n < AMOUNT_MIN || n > AMOUNT_MAX) {
      ctx.addIssue({ code: 'custom', message: `must be between ${AMOUNT_MIN} and ${AMOUNT_MAX} rials` });
      return z.NEVER;
    }
    return n;
  });

export const uuidSchema = z.uuid({ message: 'must be a UUID' });

export const httpsUrlSchema = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((s) => {
    try {
      return new URL(s).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute https URL');

/** A payer's phone: 10..20 characters, digits in any script stored as Latin. */
export const phoneSchema = z
  .string()
  .transform((s) => latinDigits(s.trim()))
  .refine((s) => s.length >= 10 && s.length <= 20, 'must be 10..20 characters');

/** The last four digits of a payer's card, Latin or Persian. */
export const cardLast4Schema = z
  .string()
  .transform((s) => latinDigits(s.trim()))
  .refine((s) => /^[0-9]{4}$/.test(s), 'must be exactly four digits');
