import { z } from 'zod';
import { latinDigits } from '../validation.js';

/**
 * The units a caller may send amounts in (docs/integration.md "1. Create a payment"): rials (`IRR`,
 * the default) or toman (`IRT`, ten rials). Amounts are stored and returned in rials; the caller's
 * choice is kept with the payment so that pages show its unit first.
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

/** A payment's amount in rials: at least 10,000 and at most 1,000,000,000. */
export const AMOUNT_MIN = 10_000n;
export const AMOUNT_MAX = 1_000_000_000n;

const WRITTEN_AMOUNT = /^[0-9]{1,16}$/;

/**
 * The one reading of an amount as a caller writes it: an integer (a safe one, when a number), or a
 * string of at most sixteen digits (Persian and Arabic-Indic digits too, spaces around ignored).
 * Null when it is not one. Sign and range are each caller's rule, with its own message.
 */
export function parseWholeAmount(v: number | string | bigint): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : null;
  const s = latinDigits(v.trim());
  return WRITTEN_AMOUNT.test(s) ? BigInt(s) : null;
}

/** An amount `parseWholeAmount` reads (else the `unreadable` message), then refused with `refusal`'s message when it has one. */
const amountOf = (unreadable: string, refusal: (n: bigint) => string | null) =>
  z.union([z.number(), z.string(), z.bigint()]).transform((v, ctx): bigint => {
    const n = parseWholeAmount(v);
    const message = n === null ? unreadable : refusal(n);
    if (n !== null && message === null) return n;
    ctx.addIssue({ code: 'custom', message: message ?? unreadable });
    return z.NEVER;
  });

const WHOLE = 'must be a whole amount (an integer or a string of digits)';
/**
 * A whole amount in whatever unit the caller names (`currency`): zero or more. The range is
 * checked once it is rials (`rangeRefusal`).
 */
export const wholeAmountSchema = amountOf(WHOLE, (n) => (n < 0n ? WHOLE : null));

/** An amount in rials within a payment's bounds (a list filter, a simulation's custom deposit). */
export const amountSchema = amountOf('must be a whole number of rials (integer or string of digits)', (n) =>
  n < AMOUNT_MIN || n > AMOUNT_MAX ? `must be between ${AMOUNT_MIN} and ${AMOUNT_MAX} rials` : null,
);

const POSITIVE = 'must be a positive whole number of rials (integer or string of digits)';
/** Rials of a refund: one or more. */
export const positiveRialsSchema = amountOf(POSITIVE, (n) => (n < 1n ? POSITIVE : null));

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
