import { toGregorian, toJalaali, isValidJalaaliDate } from 'jalaali-js';
import { faDigits, latinDigits } from './format.js';

/**
 * Tehran days and Jalali months as UTC instants. Iran has kept UTC+03:30 all year since 2022
 * (no daylight saving), so a Tehran wall-clock midnight is 20:30 UTC of the day before.
 */
const OFFSET_MS = 3.5 * 3600 * 1000;

export type JalaliDate = { jy: number; jm: number; jd: number };

function tehranMidnight({ jy, jm, jd }: JalaliDate): Date {
  const { gy, gm, gd } = toGregorian(jy, jm, jd);
  return new Date(Date.UTC(gy, gm - 1, gd) - OFFSET_MS);
}

export function jalaliToday(now = new Date()): JalaliDate {
  const t = new Date(now.getTime() + OFFSET_MS);
  return toJalaali(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** "1405/09/04", "۱۴۰۵-۰۹-۰۴" → the date, or null. */
export function parseJalali(text: string): JalaliDate | null {
  const m = /^\s*(\d{4})[/-](\d{1,2})[/-](\d{1,2})\s*$/.exec(latinDigits(text));
  if (!m) return null;
  const [jy, jm, jd] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return isValidJalaaliDate(jy, jm, jd) ? { jy, jm, jd } : null;
}

export function formatJalali({ jy, jm, jd }: JalaliDate): string {
  return faDigits(`${jy}/${String(jm).padStart(2, '0')}/${String(jd).padStart(2, '0')}`);
}

/** The API's Jalali form (exports accept it as from/to). */
export function isoJalali({ jy, jm, jd }: JalaliDate): string {
  return `${jy}-${String(jm).padStart(2, '0')}-${String(jd).padStart(2, '0')}`;
}

/** From the start of the first day to the last millisecond of the second (inclusive, Tehran). */
export function dayRange(from: JalaliDate, to: JalaliDate = from): { from: string; to: string } {
  return { from: tehranMidnight(from).toISOString(), to: new Date(tehranMidnight(to).getTime() + 86_400_000 - 1).toISOString() };
}
