import { isValidJalaaliDate, toGregorian, toJalaali } from 'jalaali-js';

/**
 * Tehran time and the Jalali calendar, the one place TypeScript reads them (reports, exports, the
 * dates in bank SMS). Tehran's offsets come from the runtime's time-zone data (ICU), the same IANA
 * data PostgreSQL's `AT TIME ZONE 'Asia/Tehran'` reads, so a day here is the day `jalali_date()`
 * (src/domain/reports/sql/jalali_date.sql) names. No offset is written down here: Iran has kept
 * +03:30 all year since 2022, and the day its rules change only the time-zone data changes.
 */

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Asia/Tehran',
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

// Tehran's offset has only ever changed on a quarter hour (UTC), so it is asked once per quarter.
const QUARTER_HOUR = 900_000;
const MAX_CACHED = 50_000;
const offsets = new Map<number, number>();

/** Tehran's offset from UTC at an instant, in milliseconds. */
function tehranOffsetMs(t: number): number {
  const quarter = Math.floor(t / QUARTER_HOUR);
  const cached = offsets.get(quarter);
  if (cached !== undefined) return cached;
  const at = quarter * QUARTER_HOUR;
  const p: Record<string, number> = {};
  for (const part of wallClock.formatToParts(new Date(at))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const offset = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - at;
  if (offsets.size >= MAX_CACHED) offsets.clear();
  offsets.set(quarter, offset);
  return offset;
}

export type JalaliDay = { jy: number; jm: number; jd: number };

const pad = (n: number) => String(n).padStart(2, '0');

/** The Tehran wall clock at an instant, as a UTC-based Date (read it with the getUTC… methods). */
export function tehranWall(date: Date): Date {
  const t = date.getTime();
  return new Date(t + tehranOffsetMs(t));
}

/** The Jalali day a Tehran wall clock (a UTC-based Date, as `tehranWall` gives) shows. */
export function jalaliOfWall(wall: Date): JalaliDay {
  return toJalaali(wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate());
}

const HALF_DAY = 43_200_000;

/**
 * The instant a Tehran wall clock shows, the wall clock given as a UTC-based time (`Date.UTC` of
 * its fields). Tehran's clocks change at most once within half a day, so the offsets in force half
 * a day before and after are the only candidates. A time shown twice (clocks set back) is its first
 * instant; a time never shown (clocks set forward) is read with the offset before the jump, as
 * PostgreSQL reads such a local time.
 */
export function tehranInstant(wallAsUtc: number): Date {
  const before = tehranOffsetMs(wallAsUtc - HALF_DAY);
  const after = tehranOffsetMs(wallAsUtc + HALF_DAY);
  if (before === after) return new Date(wallAsUtc - before);
  const shown = [before, after].filter((offset) => tehranOffsetMs(wallAsUtc - offset) === offset);
  return new Date(wallAsUtc - (shown.length ? Math.max(...shown) : before));
}

/** `1405/09/04 14:32:05`: the Jalali date and time in Tehran, as exports show it beside RFC 3339. */
export function jalaliDateTime(date: Date): string {
  const wall = tehranWall(date);
  const { jy, jm, jd } = jalaliOfWall(wall);
  return `${jy}/${pad(jm)}/${pad(jd)} ${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}`;
}

/** `1405-09-04`: the Tehran day an instant falls in (what SQL `jalali_date(instant)` returns). */
export function jalaliDayKey(date: Date): string {
  return dayKey(jalaliOfWall(tehranWall(date)));
}

export function dayKey({ jy, jm, jd }: JalaliDay): string {
  return `${jy}-${pad(jm)}-${pad(jd)}`;
}

/**
 * Whether the parts name a day of the Jalali calendar (months 7–11 have 30 days, Esfand 29 or 30)
 * in years 1300–1499, so that a Gregorian `2026-11-25` is not taken for a Jalali date.
 */
export function isJalaliDay({ jy, jm, jd }: JalaliDay): boolean {
  return [jy, jm, jd].every(Number.isInteger) && jy >= 1300 && jy <= 1499 && isValidJalaaliDate(jy, jm, jd);
}

/**
 * The first instant of a Jalali day in Tehran. Where clocks jumped forward at midnight (the DST
 * years), the day starts when the wall clock first shows it, as PostgreSQL reads such a local time.
 */
export function tehranDayStart(day: JalaliDay): Date {
  const { gy, gm, gd } = toGregorian(day.jy, day.jm, day.jd);
  return tehranInstant(Date.UTC(gy, gm - 1, gd));
}

/** The Jalali day after `day`. */
export function nextJalaliDay(day: JalaliDay): JalaliDay {
  const { gy, gm, gd } = toGregorian(day.jy, day.jm, day.jd);
  const next = new Date(Date.UTC(gy, gm - 1, gd + 1));
  return toJalaali(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
}
