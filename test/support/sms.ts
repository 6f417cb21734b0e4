import { toJalaali } from 'jalaali-js';

const TEHRAN_OFFSET_MS = 3.5 * 60 * 60 * 1000; // no daylight saving since 2022

const pad = (n: number) => String(n).padStart(2, '0');

/** `YY/MM/DD-hh:mm` on the Tehran Jalali calendar, as Mellat prints it. */
export function mellatDate(at: Date): string {
  const tehran = new Date(at.getTime() + TEHRAN_OFFSET_MS);
  const j = toJalaali(tehran.getUTCFullYear(), tehran.getUTCMonth() + 1, tehran.getUTCDate());
  return `${pad(j.jy % 100)}/${pad(j.jm)}/${pad(j.jd)}-${pad(tehran.getUTCHours())}:${pad(tehran.getUTCMinutes())}`;
}

/**
 * A Mellat deposit SMS. With `balance`, it carries the `مانده` line, which the service checks against
 * the account's previous balance (previous + amount = new); without, the balance chain is not involved.
 */
export function mellatDeposit(opts: { account: string; amount: bigint | number | string; at?: Date; balance?: number | bigint }): string {
  const amount = BigInt(opts.amount).toLocaleString('en-US');
  const balance = opts.balance === undefined ? '' : `\nمانده${BigInt(opts.balance).toLocaleString('en-US')}`;
  return `حساب${opts.account}\nواریز${amount}${balance}\n${mellatDate(opts.at ?? new Date())}`;
}

export function mellatWithdrawal(account: string, amount: number): string {
  return `حساب${account}\nبرداشت${amount.toLocaleString('en-US')}\nمانده18,950,000\n${mellatDate(new Date())}`;
}

/** `0YYY/MM/DD_hh:mm` on the Tehran Jalali calendar (1405 → 0405), as Parsian prints it. */
export function parsianDate(at: Date): string {
  const tehran = new Date(at.getTime() + TEHRAN_OFFSET_MS);
  const j = toJalaali(tehran.getUTCFullYear(), tehran.getUTCMonth() + 1, tehran.getUTCDate());
  return `0${j.jy % 1000}/${pad(j.jm)}/${pad(j.jd)}_${pad(tehran.getUTCHours())}:${pad(tehran.getUTCMinutes())}`;
}

/** A Parsian card-transfer deposit: it carries the bank's tracking number (`شماره پیگیری`) and a balance. */
export function parsianDeposit(opts: { cardLast4: string; amount: bigint | number | string; reference: string; balance: bigint | number; at?: Date }): string {
  const n = (v: bigint | number | string) => BigInt(v).toLocaleString('en-US');
  return `مبلغ:+${n(opts.amount)}\nمانده:${n(opts.balance)}\nبابت :انتقال از کارت 6219****3264 به کارت 6221****${opts.cardLast4} با شماره پیگیری ${opts.reference}\n${parsianDate(opts.at ?? new Date())}`;
}
