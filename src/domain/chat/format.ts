import { jalaliDateTime } from '../calendar/tehran-calendar.js';

/** Persian digits, toman with Persian thousands separators, Jalali Tehran time: what a chat message shows. */
const FA = '۰۱۲۳۴۵۶۷۸۹';

export const faDigits = (s: string | number | bigint): string => String(s).replace(/[0-9]/g, (d) => FA[Number(d)]!);

const group3 = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '٬');

/** Rials to toman (÷ 10) with Persian digits and separators, and a tenth when the rials do not end in 0: `۱۵۰٬۰۰۰ تومان`. */
export function toman(rials: bigint | string): string {
  const value = BigInt(rials);
  const sign = value < 0n ? '−' : '';
  const digits = (value < 0n ? -value : value).toString();
  const whole = digits.length > 1 ? digits.slice(0, -1) : '0';
  const tenth = digits.slice(-1);
  return `${sign}${faDigits(group3(whole))}${tenth === '0' ? '' : `٫${faDigits(tenth)}`} تومان`;
}

/** `۱۴۰۵/۰۹/۰۴ ۱۴:۳۲`: Jalali date and Tehran time. */
export function jalaliTime(at: Date): string {
  return faDigits(jalaliDateTime(at).slice(0, 16));
}
