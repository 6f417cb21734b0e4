import { z } from 'zod';
import { AMOUNT_MAX, AMOUNT_MIN, latinDigits } from '../validation.js';

/**
 * The units a caller may send amounts in (CONTRACT "Payments", units): rials (`IRR`, the default)
 * or toman (`IRT`, ten rials). Amounts are stored and returned in rials; the caller's choice is kept
 * with the payment so that pages show its unit first.
 */
export const CURRENCIES = ['IRR', 'IRT'] as const;
export type Currency = (typeof CURRENCIES)[number];

const RIALS_PER_UNIT: Record<Currency, bigint> = { IRR: 1n, IRT: 10n };

export const currencySchema = z.enum(CURRENCIES, { error: 'must be "IRR" (rials) or "IRT" (toman)' });

export function isCurrency(value: unknown): value is Currency {
  return (CURRENCIES as readonly unknown[]).includes(value);
}

export function toRials(amount: bigint, currency: Currency): bigint {
  return amount * RIALS_PER_UNIT[currency];
}

/** Rials written in `currency`: toman with a tenth when the rials do not end in 0. */
export function inCurrency(rials: bigint, currency: Currency): string {
  const per = RIALS_PER_UNIT[currency];
  const rest = rials % per;
  return `${rials / per}${rest === 0n ? '' : `.${rest}`}`;
}

/**
 * A whole amount as a caller writes it, in whatever unit it names: an integer or a string of digits
 * (Persian and Arabic-Indic digits too). The range is checked once it is rials (`rangeRefusal`).
 */
export const wholeAmountSchema = z.union([z.number(), z.string(), z.bigint()]).transform((v, ctx): bigint => {
  let n: bigint | undefined;
  if (typeof v === 'bigint') n = v >= 0n ? v : undefined;
  else if (typeof v === 'number') n = Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : undefined;
  else {
    const s = latinDigits(v.trim());
    n = /^[0-9]{1,16}$/.test(s) ? BigInt(s) : undefined;
  }
  if (n === undefined) {
    ctx.addIssue({ code: 'custom', message: 'must be a whole amount (an integer or a string of digits)' });
    return z.NEVER;
  }
  return n;
});

/** Why `rials` (sent in `currency`) is outside min..max, in the caller's unit and in rials; null when inside. */
export function rangeRefusal(rials: bigint, currency: Currency, min: bigint = AMOUNT_MIN, max: bigint = AMOUNT_MAX): string | null {
  if (rials >= min && rials <= max) return null;
  if (currency === 'IRR') return `must be between ${min} and ${max} rials`;
  return `must be between ${inCurrency(min, currency)} and ${inCurrency(max, currency)} toman (${min}..${max} rials)`;
}

/**
 * For an object schema with `amount` (a `wholeAmountSchema`) and `currency`: the range rule, run
 * also when other fields are bad, so that every bad field is named at once.
 */
export function checkAmountRange(value: { amount?: bigint | null; currency?: unknown } | null, ctx: z.RefinementCtx): void {
  if (typeof value !== 'object' || value === null || typeof value.amount !== 'bigint' || !isCurrency(value.currency)) return;
  const refusal = rangeRefusal(toRials(value.amount, value.currency), value.currency);
  if (refusal) ctx.addIssue({ code: 'custom', path: ['amount'], message: refusal });
}
