import { z } from 'zod';
import { latinDigits } from '../validation.js';
import { isJalaliDay, jalaliDayKey, nextJalaliDay, tehranDayStart, type JalaliDay } from '../calendar/tehran-calendar.js';

/** The longest range a report or an export covers: a leap year. */
export const MAX_RANGE_DAYS = 366;
/** Without `from`, a range covers this many days up to `to`. */
export const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 86_400_000;

const RFC3339 = z.iso.datetime({ offset: true });
const JALALI_DAY = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/;
const SHAPE = 'must be an RFC 3339 date-time (2026-11-25T10:30:00Z) or a Jalali date (1405-09-04)';

/**
 * One end of a range, as given: an RFC 3339 instant, or a Jalali day (`1405-09-04`, Persian digits
 * too) that stands for the whole Tehran day: its first instant as `from`, its last as `to`.
 */
function bound(edge: 'from' | 'to') {
  return z.string().transform((raw, ctx): Date => {
    const s = latinDigits(raw.trim());
    const day = JALALI_DAY.exec(s);
    if (day) {
      const parts: JalaliDay = { jy: Number(day[1]), jm: Number(day[2]), jd: Number(day[3]) };
      if (parts.jy < 1300 || parts.jy > 1499) {
        ctx.addIssue({ code: 'custom', message: `${s} is not a Jalali date (years 1300–1499); ${SHAPE}` });
        return z.NEVER;
      }
      if (!isJalaliDay(parts)) {
        ctx.addIssue({ code: 'custom', message: `${s} is not a day of the Jalali calendar (Mehr to Bahman have 30 days, Esfand 29 or 30)` });
        return z.NEVER;
      }
      if (edge === 'from') return tehranDayStart(parts);
      return new Date(tehranDayStart(nextJalaliDay(parts)).getTime() - 1);
    }
    if (!RFC3339.safeParse(s).success) {
      ctx.addIssue({ code: 'custom', message: SHAPE });
      return z.NEVER;
    }
    return new Date(s);
  });
}

/** `from` and `to` as query parameters or arguments take; `resolveRange` then checks them together. */
export const rangeFields = { from: bound('from').optional(), to: bound('to').optional() };

export type DateRange = { from: Date; to: Date };

/**
 * Both ends, inclusive: `to` defaults to now and `from` to DEFAULT_RANGE_DAYS before `to`. A range
 * that ends before it starts, or covers more than MAX_RANGE_DAYS, is refused naming the parameter
 * to change (`to` when given, else `from`).
 */
export function resolveRange(given: { from?: Date; to?: Date }, now = new Date()): DateRange | { field: 'from' | 'to'; message: string } {
  const to = given.to ?? now;
  const from = given.from ?? new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  const blamed = given.to ? 'to' : 'from';
  if (to.getTime() < from.getTime()) return { field: blamed, message: blamed === 'to' ? 'must not be before from' : 'must not be after to' };
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    return { field: blamed, message: `the range covers more than ${MAX_RANGE_DAYS} days; ask for a year at most` };
  }
  return { from, to };
}

/** `1405-09-01_1405-09-30`: the Tehran days a range covers, for file names. */
export function rangeLabel(range: DateRange): string {
  return `${jalaliDayKey(range.from)}_${jalaliDayKey(range.to)}`;
}

/** For a schema's transform: the checked range in place of `from` and `to`, or the issue naming the parameter. */
export function withRange<T extends { from?: Date; to?: Date }>(value: T, ctx: z.RefinementCtx): Omit<T, 'from' | 'to'> & { range: DateRange } {
  const { from, to, ...rest } = value;
  const range = resolveRange({ from, to });
  if ('field' in range) {
    ctx.addIssue({ code: 'custom', path: [range.field], message: range.message });
    return z.NEVER;
  }
  return { ...rest, range };
}
