import { toGregorian } from 'jalaali-js';
import { describe, expect, it } from 'vitest';
import { expandJalaliYear, findBankTime, jalaliToUtc } from '../../src/domain/sms/jalali.js';

const utc = (year: number, month: number, day: number, hour: number, minute: number, second = 0) =>
  jalaliToUtc({ year, month, day, hour, minute, second })?.toISOString() ?? null;

describe('jalaliToUtc', () => {
  it('reads Tehran wall time at UTC+03:30 since DST ended', () => {
    expect(utc(1404, 7, 15, 14, 2)).toBe('2025-10-07T10:32:00.000Z');
    expect(utc(1404, 4, 13, 10, 22)).toBe('2025-07-04T06:52:00.000Z');
  });

  it('reads summer dates before 1401/07 at UTC+04:30', () => {
    expect(utc(1399, 4, 14, 16, 49)).toBe('2020-07-04T12:19:00.000Z');
    expect(utc(1400, 6, 30, 12, 0)).toBe('2021-09-21T07:30:00.000Z');
  });

  it('starts DST at the end of 1 Farvardin and ends it after 30 Shahrivar, as tzdata does', () => {
    expect(utc(1401, 1, 1, 12, 0)).toBe('2022-03-21T08:30:00.000Z');
    expect(utc(1401, 1, 2, 12, 0)).toBe('2022-03-22T07:30:00.000Z');
    expect(utc(1401, 6, 31, 0, 30)).toBe('2022-09-21T21:00:00.000Z');
  });

  it('refuses dates and times that do not exist', () => {
    expect(utc(1404, 7, 31, 10, 0)).toBeNull();
    expect(utc(1404, 13, 1, 10, 0)).toBeNull();
    expect(utc(1404, 12, 31, 10, 0)).toBeNull();
    expect(utc(1404, 7, 15, 24, 0)).toBeNull();
    expect(utc(1404, 7, 15, 10, 60)).toBeNull();
  });

  it('agrees with the platform time zone database for every day from 1387 to 1405', () => {
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tehran', timeZoneName: 'longOffset' });
    const mismatches: string[] = [];
    for (let year = 1387; year <= 1405; year++) {
      for (let month = 1; month <= 12; month++) {
        for (let day = 1; day <= (month <= 6 ? 31 : 30); day++) {
          const at = jalaliToUtc({ year, month, day, hour: 12, minute: 0 });
          if (!at) continue;
          const g = toGregorian(year, month, day);
          const label = offset.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
          const minutes = (Date.UTC(g.gy, g.gm - 1, g.gd, 12) - at.getTime()) / 60_000;
          const expected = `GMT+0${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
          if (label !== expected) mismatches.push(`${year}/${month}/${day}: ${label} vs ${expected}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('expandJalaliYear', () => {
  it.each([
    ['04', 1404],
    ['99', 1399],
    ['0403', 1403],
    ['1404', 1404],
  ])('reads %s as %i', (raw, year) => {
    expect(expandJalaliYear(raw)).toBe(year);
  });

  it('refuses a three-digit year', () => {
    expect(expandJalaliYear('404')).toBeNull();
  });
});

describe('findBankTime', () => {
  const receivedAt = new Date('2025-10-07T12:00:00.000Z');

  it.each([
    ['YY/MM/DD-hh:mm', '04/07/15-14:02'],
    ['YYYY/MM/DD hh:mm', 'مانده 1\n1404/07/15 14:02'],
    ['Parsian 0YYY/MM/DD_hh:mm', '0404/07/15_14:02'],
    ['date and time on separate lines', '1404/7/15\n14:02'],
    ['dotted date under the time', '14:02\n1404.07.15'],
    ['dashed date and time', '1404-07-15 - 14:02'],
  ])('reads %s', (_, text) => {
    expect(findBankTime(text)?.toISOString()).toBe('2025-10-07T10:32:00.000Z');
  });

  it('reads seconds', () => {
    expect(findBankTime('زمان: 1404/07/15 01:13:24')?.toISOString()).toBe('2025-10-06T21:43:24.000Z');
  });

  it('reads the compact YYMMDDhhmm and YYMMDD-hh:mm lines only when asked', () => {
    expect(findBankTime('0407151402', { compact: true })?.toISOString()).toBe('2025-10-07T10:32:00.000Z');
    expect(findBankTime('040715-14:02', { compact: true })?.toISOString()).toBe('2025-10-07T10:32:00.000Z');
    expect(findBankTime('0407151402')).toBeNull();
  });

  it('takes the year of a year-less date from the arrival time', () => {
    expect(findBankTime('07/15_14:02', { receivedAt })?.toISOString()).toBe('2025-10-07T10:32:00.000Z');
    expect(findBankTime('0715-14:02', { receivedAt })?.toISOString()).toBe('2025-10-07T10:32:00.000Z');
    expect(findBankTime('0715-14:02')).toBeNull();
  });

  it('puts an Esfand date read on Nowruz in the year before', () => {
    const nowruz = new Date('2025-03-20T20:33:00.000Z');
    expect(findBankTime('12/30-23:58', { receivedAt: nowruz })?.toISOString()).toBe('2025-03-20T20:28:00.000Z');
  });

  it('returns null for a time without a date, or a date without a time', () => {
    expect(findBankTime('اعتبارتا: 21:30:00', { receivedAt })).toBeNull();
    expect(findBankTime('1404/07/15', { receivedAt })).toBeNull();
  });
});
