import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rangeFields, resolveRange, withRange } from '../../src/domain/reports/date-range.js';
import { jalaliDateTime, tehranDayStart } from '../../src/domain/calendar/tehran-calendar.js';

const schema = z.object(rangeFields).strict().transform(withRange);
const parse = (input: Record<string, string>) => schema.safeParse(input);
const fieldsOf = (r: ReturnType<typeof parse>) => (r.success ? [] : r.error.issues.map((i) => i.path.join('.')));

describe('a report range', () => {
  it('reads a Jalali day as the whole Tehran day, `to` up to its last millisecond', () => {
    const r = parse({ from: '1405-09-04', to: '1405-09-04' });
    expect(r.success && r.data.range.from.toISOString()).toBe('2026-11-24T20:30:00.000Z');
    expect(r.success && r.data.range.to.toISOString()).toBe('2026-11-25T20:29:59.999Z');
  });

  it('reads Persian digits and slashes in a Jalali day', () => {
    const r = parse({ from: '۱۴۰۵/۰۹/۰۴', to: '1405/9/4' });
    expect(r.success && r.data.range.from.toISOString()).toBe('2026-11-24T20:30:00.000Z');
  });

  it('reads RFC 3339 date-times as given', () => {
    const r = parse({ from: '2026-11-25T10:30:00+03:30', to: '2026-11-25T23:00:00Z' });
    expect(r.success && r.data.range.from.toISOString()).toBe('2026-11-25T07:00:00.000Z');
    expect(r.success && r.data.range.to.toISOString()).toBe('2026-11-25T23:00:00.000Z');
  });

  it('refuses a Jalali date that does not exist, naming the parameter', () => {
    expect(fieldsOf(parse({ from: '1405-07-31' }))).toEqual(['from']);
    expect(fieldsOf(parse({ to: '1405-13-01' }))).toEqual(['to']);
    // 1405 is not a leap year: Esfand has 29 days; 1403 is, and has 30.
    expect(fieldsOf(parse({ from: '1405-12-30' }))).toEqual(['from']);
    expect(parse({ from: '1403-12-30', to: '1403-12-30' }).success).toBe(true);
  });

  it('refuses what is neither an RFC 3339 date-time nor a Jalali date', () => {
    expect(fieldsOf(parse({ from: 'yesterday', to: '2026-11-25' }))).toEqual(['from', 'to']);
  });

  it('takes a whole leap year and refuses a day more, naming the parameter', () => {
    expect(parse({ from: '1403-01-01', to: '1403-12-30' }).success).toBe(true);
    expect(fieldsOf(parse({ from: '1403-01-01', to: '1404-01-01' }))).toEqual(['to']);
    expect(fieldsOf(parse({ from: '1390-01-01' }))).toEqual(['from']);
  });

  it('refuses an end before the start', () => {
    expect(fieldsOf(parse({ from: '1405-09-04', to: '1405-09-03' }))).toEqual(['to']);
  });

  it('defaults to the 30 days up to now', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const r = resolveRange({}, now);
    expect(r).toEqual({ from: new Date('2026-10-26T12:00:00Z'), to: now });
  });

  it('shows an instant as the Jalali date and time in Tehran', () => {
    expect(jalaliDateTime(new Date('2026-11-25T11:02:05.250Z'))).toBe('1405/09/04 14:32:05');
    expect(jalaliDateTime(tehranDayStart({ jy: 1405, jm: 1, jd: 1 }))).toBe('1405/01/01 00:00:00');
  });
});
