import type { Direction, ParsedSms } from './types.js';

export const AMOUNT = String.raw`\d{1,3}(?:,\d{3})+|\d+`;

/** One line read as `label value`, `label:value` or a bare value (empty label). */
export type Field = { label: string; value: string };

export function fieldsOf(body: string): Field[] {
  return body.split('\n').map((line) => {
    const m = /^([^\d+\-:*]*):?\s*(.*)$/.exec(line);
    return { label: (m?.[1] ?? '').trim(), value: (m?.[2] ?? '').trim() };
  });
}

export function findField(fields: Field[], label: RegExp): Field | undefined {
  return fields.find((f) => label.test(f.label));
}

/** A shape-only claim must yield to a body that names a bank: that name is the stronger evidence. */
export function namesABank(body: string): boolean {
  return /بانک/.test(body);
}

export type Sign = '+' | '-' | null;
export type SignedAmount = { amount: bigint; sign: Sign };

const LEADING_AMOUNT = new RegExp(String.raw`^([+-])?\s*(${AMOUNT})(?![\d,])\s*([+-](?![\d]))?\s*(ریال|تومان)?`);
// What may not follow an amount: more digits after a dash, dot, slash or star is an account, card or date.
const NOT_AN_AMOUNT_AFTER = /^(?:[\-./*:_]\d|\*|\.{2})/;

/** Reads the amount a value starts with, its sign on either side, and a toman unit (×10 into rials). */
export function leadingAmount(value: string): SignedAmount | null {
  const m = LEADING_AMOUNT.exec(value);
  if (!m?.[2]) return null;
  if (NOT_AN_AMOUNT_AFTER.test(value.slice(m[0].length)) || NOT_AN_AMOUNT_AFTER.test(value.slice(m[0].trimEnd().length))) return null;
  const before = (m[1] ?? null) as Sign;
  const after = (m[3] ?? null) as Sign;
  if (before && after && before !== after) return null;
  const rials = BigInt(m[2].replace(/,/g, ''));
  return { amount: m[4] === 'تومان' ? rials * 10n : rials, sign: before ?? after };
}

/**
 * Digits of an account or card reference. A masked one (`6221****3057`, `8783*`, `...5521`)
 * yields its last visible group; an unmasked one (`299-100-1112233-1`) yields all its digits.
 */
export function hintOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const groups = raw
    .split(/\*+|\.{2,}|…|[xX]{2,}/)
    .map((g) => g.replace(/\D/g, ''))
    .filter((g) => g.length > 0);
  const last = groups[groups.length - 1];
  return last !== undefined && last.length >= 2 ? last : null;
}

const REFERENCE = /(?:پیگیری|رهگیری|مستند|مرجع|ارجاع|سند)\s*:?\s*(\d{3,})/;

export function referenceOf(body: string): string | null {
  return REFERENCE.exec(body)?.[1] ?? null;
}

// `مانده بدهی` / `مانده وام` is what is owed, not what the account holds.
const BALANCE_VALUE = new RegExp(
  String.raw`(?:مانده|موجودی)(?![^\S\n]*(?:بدهی|وام|قسط|اقساط|تسهیلات))` +
    String.raw`(?:[^\S\n]*(?:حساب|کارت|قابل برداشت|فعلی|جدید|شما))*[^\S\n]*` +
    String.raw`(?:[\d\-*.]{4,}[^\S\n]*:)?[^\S\n]*:?\s*([+-])?[^\S\n]*(${AMOUNT})(?![\d,/:.\-_*])[^\S\n]*(ریال|تومان)?`,
);

/** The balance after the movement (`مانده`, `موجودی`), in rials; null when the SMS states none. */
export function balanceOf(body: string): bigint | null {
  const m = BALANCE_VALUE.exec(body);
  if (!m?.[2]) return null;
  const rials = BigInt(m[2].replace(/,/g, '')) * (m[3] === 'تومان' ? 10n : 1n);
  return m[1] === '-' ? -rials : rials;
}

// `کارمزد` (a fee) contains `رمز` (a password) but is neither.
const OTP = /(?<!کا)رمز|یک\s*بار\s*مصرف|یکبار\s*مصرف|کد\s*(?:تایید|تأیید|فعال)|\bcode\s*[=:]|\botp\b/i;
const BALANCE = /مانده|موجودی/;
// A credit announced, requested or failed is not money that arrived (`… واریز خواهد شد`, `انجام نشد`).
const NOT_DONE = /خواهد|ناموفق|انجام نشد|واریز نشد|لغو شد|برگشت خورد|در صورت|درخواست|جهت واریز|برای واریز|لطفا/;

function isOtp(body: string): boolean {
  return OTP.test(body);
}

export type Signals = { body: string; amount: SignedAmount | null; deposit: boolean; withdrawal: boolean };

/**
 * A deposit needs an amount, a positive signal (a `+` or a deposit word) and no negative one:
 * anything that also reads as a password, a withdrawal or a contradiction is not a deposit,
 * because a deposit here can confirm a payment without a human.
 */
export function decideDirection(s: Signals): Direction {
  if (isOtp(s.body)) return 'otp';
  if (s.amount?.sign === '-' || s.withdrawal) return 'withdrawal';
  if (s.amount && (s.amount.sign === '+' || s.deposit)) return NOT_DONE.test(s.body) ? 'other' : 'deposit';
  if (!s.amount && BALANCE.test(s.body)) return 'balance';
  return 'other';
}

/** `hint` may depend on the direction: a deposit names the receiving account, a withdrawal the paying one. */
export function buildParsed(
  bankCode: string,
  s: Signals,
  hint: string | null | ((direction: Direction) => string | null),
  bankTime: Date | null,
): ParsedSms {
  const direction = decideDirection(s);
  return {
    bankCode,
    direction,
    amount: s.amount?.amount ?? null,
    accountHint: typeof hint === 'function' ? hint(direction) : hint,
    bankTime,
    reference: referenceOf(s.body),
    balance: balanceOf(s.body),
    generic: false,
  };
}
