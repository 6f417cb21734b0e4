import { z } from 'zod';
import { AppError, type FieldError } from '../errors.js';

/**
 * Checks input against a schema; every broken rule becomes one `details.fields` entry. Every door
 * comes through here, so the rules no single schema states are applied here once: no string may
 * hold NUL or a lone surrogate (Postgres text cannot store them), no date may fall outside years
 * 1..9999 (Postgres and JS disagree beyond), and no object may carry a `__proto__` key (a plain
 * object silently drops it, and metadata must come back exactly as sent).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const keyErrors = findProtoKeys(input);
  if (keyErrors.length) throw AppError.invalid(keyErrors);
  const result = schema.safeParse(input);
  if (!result.success) throw AppError.invalid(toFieldErrors(result.error));
  const hostile = findHostileValues(result.data);
  if (hostile.length) throw AppError.invalid(hostile);
  return result.data;
}

const MAX_DEPTH = 32;
const MIN_TIME = Date.UTC(1, 0, 1);
const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** NUL, or a UTF-16 surrogate without its pair: text no database column can hold. */
export function isUnstorableText(s: string): boolean {
  return s.includes('\u0000') || LONE_SURROGATE.test(s);
}

// Without the `u` flag a regex sees UTF-16 code units, so a half of a pair can be matched alone.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

function fieldName(path: (string | number)[]): string {
  return path.length ? path.map((p) => (typeof p === 'string' ? p.replace(/[\u0000\ud800-\udfff]/g, '\ufffd') : String(p))).join('.') : 'body';
}

function findProtoKeys(value: unknown, path: (string | number)[] = [], out: FieldError[] = []): FieldError[] {
  if (typeof value !== 'object' || value === null || path.length > MAX_DEPTH) return out;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (key === '__proto__') out.push({ field: fieldName(at), message: 'the key __proto__ is not allowed' });
    findProtoKeys(child, at, out);
  }
  return out;
}

function findHostileValues(value: unknown, path: (string | number)[] = [], out: FieldError[] = []): FieldError[] {
  if (path.length > MAX_DEPTH) return out;
  if (typeof value === 'string') {
    if (isUnstorableText(value)) out.push({ field: fieldName(path), message: 'must not contain NUL characters or unpaired surrogates' });
  } else if (value instanceof Date) {
    const t = value.getTime();
    if (!(t >= MIN_TIME && t <= MAX_TIME)) out.push({ field: fieldName(path), message: 'must be a date-time between the years 1 and 9999' });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      const at = [...path, Array.isArray(value) ? Number(key) : key];
      if (isUnstorableText(key)) out.push({ field: fieldName(at), message: 'a key must not contain NUL characters or unpaired surrogates' });
      findHostileValues(child, at, out);
    }
  }
  return out;
}

export function toFieldErrors(error: z.ZodError): FieldError[] {
  const seen = new Set<string>();
  const fields: FieldError[] = [];
  const add = (path: PropertyKey[], message: string) => {
    const field = path.length ? path.map(String).join('.') : 'body';
    if (seen.has(field)) return;
    seen.add(field);
    fields.push({ field, message });
  };
  for (const issue of error.issues) {
    // A field the interface does not define is named, one entry each (a strict schema's refusal).
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) add([...issue.path, key], 'is not a field of this request');
    else add(issue.path, issue.message);
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

const NUL_SYMBOL = '\u2400';
const REPLACEMENT = '\ufffd';

/**
 * A raw SMS body as a phone forwarded it. Unlike every other field it is never refused for NUL or
 * a lone surrogate (a bank's message is evidence and must be kept): `text` has NUL shown as '␀' and
 * lone surrogates as U+FFFD, so it can be stored and parsed; `raw` is the exact original as a JSON
 * string literal, only when it differs.
 */
export const smsBodySchema = z
  .string()
  .min(1, 'must not be empty')
  .max(10_000, 'must be at most 10,000 characters')
  .transform((s) => {
    if (!isUnstorableText(s)) return { text: s, raw: null };
    return { text: s.replace(LONE_SURROGATES, REPLACEMENT).replaceAll('\u0000', NUL_SYMBOL), raw: JSON.stringify(s) };
  });

/** Rials that may be zero and are not a payment's (a credit, a card's balance): an integer or a string of digits (any script). */
export const rialsSchema = z.union([z.number().int(), z.string()]).transform((v, ctx): bigint => {
  const s = latinDigits(String(v).trim());
  if (!/^[0-9]{1,18}$/.test(s)) {
    ctx.addIssue({ code: 'custom', message: 'must be a non-negative whole number of rials' });
    return z.NEVER;
  }
  return BigInt(s);
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
