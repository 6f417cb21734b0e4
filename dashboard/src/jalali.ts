import { toGregorian, toJalaali, isValidJalaaliDate } from 'jalaali-js';
import { faDigits, latinDigits } from './format.js';
import { tehranInstant, tehranWall } from './tehran.js';

/** Tehran days and Jalali months as UTC instants (Tehran time from ./tehran.ts). */

export type JalaliDate = { jy: number; jm: number; jd: number };

/** The first instant of a Jalali day in Tehran. */
function tehranMidnight({ jy, jm, jd }: JalaliDate): Date {
  const { gy, gm, gd } = toGregorian(jy, jm, jd);
  return tehranInstant(Date.UTC(gy, gm - 1, gd));
}

function nextDay({ jy, jm, jd }: JalaliDate): JalaliDate {
  const { gy, gm, gd } = toGregorian(jy, jm, jd);
  const next = new Date(Date.UTC(gy, gm - 1, gd + 1));
  return toJalaali(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
}

export function jalaliToday(now = new Date()): JalaliDate {
  const wall = tehranWall(now);
  return toJalaali(wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate());
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
  return { from: tehranMidnight(from).toISOString(), to: new Date(tehranMidnight(nextDay(to)).getTime() - 1).toISOString() };
}
