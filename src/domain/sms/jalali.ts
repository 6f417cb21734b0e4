import { isValidJalaaliDate, toGregorian } from 'jalaali-js';
import { jalaliOfWall, tehranInstant, tehranWall } from '../calendar/tehran-calendar.js';

export type JalaliDateTime = { year: number; month: number; day: number; hour: number; minute: number; second?: number };

/** `04` → 1404, `99` → 1399, `0403` → 1403 (Parsian drops the leading 1), `1404` → 1404. */
export function expandJalaliYear(raw: string): number | null {
  if (!/^\d{2}$|^\d{4}$/.test(raw)) return null;
  const n = Number(raw);
  if (raw.length === 2) return n < 50 ? 1400 + n : 1300 + n;
  return raw.startsWith('0') ? 1000 + n : n;
}

/**
 * The instant a Tehran wall-clock Jalali date and time names (the offset of that date, DST years
 * included, from the time-zone data); null when the parts are not a real date or time.
 */
export function jalaliToUtc(p: JalaliDateTime): Date | null {
  const second = p.second ?? 0;
  const parts = [p.year, p.month, p.day, p.hour, p.minute, second];
  if (!parts.every(Number.isInteger) || p.year < 1300 || p.year > 1500) return null;
  if (!isValidJalaaliDate(p.year, p.month, p.day)) return null;
  if (p.hour > 23 || p.minute > 59 || second > 59 || Math.min(p.hour, p.minute, second) < 0) return null;
  const g = toGregorian(p.year, p.month, p.day);
  return tehranInstant(Date.UTC(g.gy, g.gm - 1, g.gd, p.hour, p.minute, second));
}

/** Picks the Jalali year for a date line without one: the candidate nearest the moment the SMS arrived. */
function withInferredYear(p: Omit<JalaliDateTime, 'year'>, receivedAt: Date): Date | null {
  const t = receivedAt.getTime();
  if (!Number.isFinite(t)) return null;
  const { jy } = jalaliOfWall(tehranWall(receivedAt));
  const candidates = [jy - 1, jy, jy + 1]
    .map((year) => jalaliToUtc({ ...p, year }))
    .filter((d): d is Date => d !== null);
  candidates.sort((a, b) => Math.abs(a.getTime() - t) - Math.abs(b.getTime() - t));
  return candidates[0] ?? null;
}

const TIME = String.raw`(\d{1,2}):(\d{2})(?::(\d{2}))?`;
const DATE = String.raw`(\d{4}|\d{2})[/.\-](\d{1,2})[/.\-](\d{1,2})`;
// A time may sit on the next line, or under its own label (`تاریخ:1405/07/09` / `ساعت:12:30`).
const DATE_THEN_TIME = new RegExp(String.raw`(?<![\d/.,])${DATE}[ _\-\n]*(?:(?:ساعت|زمان)[ ]*:?[ ]*)?${TIME}(?![\d:])`);
const TIME_THEN_DATE = new RegExp(String.raw`(?<![\d:])${TIME}[ \-\n]+${DATE}(?![\d/.])`);
const COMPACT = new RegExp(String.raw`^(\d{2})(\d{2})(\d{2})[ _\-]?(\d{2}):?(\d{2})$`, 'm');
const YEARLESS = new RegExp(String.raw`(?<![\d/.,:])(?:(\d{1,2})/(\d{1,2})|(\d{2})(\d{2}))[ _\-\n]+${TIME}(?![\d:])`);
// Pasargad also writes the time first: `14:44_04/23`.
const TIME_THEN_YEARLESS = new RegExp(String.raw`(?<![\d:])${TIME}[ _\-]+(\d{1,2})/(\d{1,2})(?![\d/])`);
// Sepah writes `19:23 1405,07,16`; a comma cannot start an amount group of two digits, so this is a date.
const COMMA_DATE = /(?<![\d,])(1[34]\d{2}),(\d{1,2}),(\d{1,2})(?![\d,])/g;

export type BankTimeOptions = {
  /** Also read Keshavarzi's `YYMMDDhhmm` and `YYMMDD-hh:mm` lines; off elsewhere, where such a line may be an account. */
  compact?: boolean;
  /** Supplies the year to `MM/DD-hh:mm` and `MMDD-hh:mm` lines. */
  receivedAt?: Date;
};

const num = (s: string | undefined): number => (s === undefined ? 0 : Number(s));

function fromGroups(y?: string, mo?: string, d?: string, h?: string, mi?: string, s?: string): Date | null {
  const year = expandJalaliYear(y ?? '');
  if (year === null) return null;
  return jalaliToUtc({ year, month: num(mo), day: num(d), hour: num(h), minute: num(mi), second: num(s) });
}

/** The first Jalali date-and-time in a normalized body, as an instant; null when it has none. */
export function findBankTime(raw: string, options: BankTimeOptions = {}): Date | null {
  const body = raw.replace(COMMA_DATE, '$1/$2/$3');
  const dt = DATE_THEN_TIME.exec(body);
  const dateThenTime = dt && fromGroups(dt[1], dt[2], dt[3], dt[4], dt[5], dt[6]);
  if (dateThenTime) return dateThenTime;
  const td = TIME_THEN_DATE.exec(body);
  const timeThenDate = td && fromGroups(td[4], td[5], td[6], td[1], td[2], td[3]);
  if (timeThenDate) return timeThenDate;
  const c = options.compact ? COMPACT.exec(body) : null;
  const compact = c && fromGroups(c[1], c[2], c[3], c[4], c[5]);
  if (compact) return compact;
  if (!options.receivedAt) return null;
  const y = YEARLESS.exec(body);
  if (y) {
    const parts = { month: num(y[1] ?? y[3]), day: num(y[2] ?? y[4]), hour: num(y[5]), minute: num(y[6]), second: num(y[7]) };
    const found = withInferredYear(parts, options.receivedAt);
    if (found) return found;
  }
  const t = TIME_THEN_YEARLESS.exec(body);
  if (!t) return null;
  return withInferredYear({ month: num(t[4]), day: num(t[5]), hour: num(t[1]), minute: num(t[2]), second: num(t[3]) }, options.receivedAt);
}
