import { toJalaali } from 'jalaali-js';

const TEHRAN_OFFSET_MS = 3.5 * 60 * 60 * 1000; // no daylight saving since 2022

const pad = (n: number) => String(n).padStart(2, '0');

/** `YY/MM/DD-hh:mm` on the Tehran Jalali calendar, as Mellat prints it. */
export function mellatDate(at: Date): string {
  const tehran = new Date(at.getTime() + TEHRAN_OFFSET_MS);
  const j = toJalaali(tehran.getUTCFullYear(), tehran.getUTCMonth() + 1, tehran.getUTCDate());
  return `${pad(j.jy % 100)}/${pad(j.jm)}/${pad(j.jd)}-${pad(tehran.getUTCHours())}:${pad(tehran.getUTCMinutes())}`;
}

/** A Mellat deposit SMS; `balance` varies the body so that two deposits are distinct messages. */
export function mellatDeposit(opts: { account: string; amount: bigint | number | string; at?: Date; balance?: number }): string {
  const amount = BigInt(opts.amount).toLocaleString('en-US');
  const balance = (opts.balance ?? 21_250_000).toLocaleString('en-US');
  return `حساب${opts.account}\nواریز${amount}\nمانده${balance}\n${mellatDate(opts.at ?? new Date())}`;
}

export function mellatWithdrawal(account: string, amount: number): string {
  return `حساب${account}\nبرداشت${amount.toLocaleString('en-US')}\nمانده18,950,000\n${mellatDate(new Date())}`;
}
