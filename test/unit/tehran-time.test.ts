import { describe, expect, it } from 'vitest';
import { tehranInstant, tehranWall } from '../../src/domain/calendar/tehran-calendar.js';

// Tehran time from the time-zone data, never a written offset (src/domain/calendar/tehran-calendar.ts).
const instant = (wall: string) => tehranInstant(Date.parse(`${wall}Z`)).toISOString();

describe('the instant a Tehran wall clock shows', () => {
  it('is +03:30 since DST ended (2022) and +04:30 in a summer before', () => {
    expect(instant('2025-10-07T14:02:00')).toBe('2025-10-07T10:32:00.000Z');
    expect(instant('2021-07-04T16:49:00')).toBe('2021-07-04T12:19:00.000Z');
  });

  it('reads an hour the clocks skipped (00:30 on 2 Farvardin 1401) with the offset before the jump, as PostgreSQL does', () => {
    expect(instant('2022-03-22T00:30:00')).toBe('2022-03-21T21:00:00.000Z');
    expect(tehranWall(new Date('2022-03-21T21:00:00.000Z')).toISOString()).toBe('2022-03-22T01:30:00.000Z');
  });

  it('reads an hour the clocks showed twice (23:30 on 30 Shahrivar 1401) as its first instant', () => {
    expect(instant('2022-09-21T23:30:00')).toBe('2022-09-21T19:00:00.000Z');
    expect(tehranWall(new Date('2022-09-21T19:00:00.000Z')).toISOString()).toBe('2022-09-21T23:30:00.000Z');
    expect(tehranWall(new Date('2022-09-21T20:00:00.000Z')).toISOString()).toBe('2022-09-21T23:30:00.000Z');
  });
});
