import { toJalaali } from 'jalaali-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jalaliDateTime, jalaliDayKey, nextJalaliDay, tehranDayStart } from '../../src/domain/calendar/tehran-calendar.js';
import { createTestDatabase } from '../support/harness.js';

// The SQL owner of Jalali periods (src/domain/reports/sql/jalali_date.sql) and the TypeScript that
// names dates in exports (src/domain/calendar/tehran-calendar.ts) must name every instant alike.
describe('jalali_date() and the TypeScript calendar', () => {
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: await createTestDatabase() });
    await client.connect();
  });
  afterAll(() => client?.end());

  const pad = (n: number) => String(n).padStart(2, '0');

  it('names every Tehran day from 1950 to 2150 as jalaali-js does', async () => {
    const { rows } = await client.query<{ g: string; j: string }>(
      `SELECT d::date::text AS g, jalali_date((d + interval '12 hours') AT TIME ZONE 'Asia/Tehran') AS j
         FROM generate_series('1950-01-01'::timestamp, '2150-01-01'::timestamp, interval '1 day') d`,
    );
    expect(rows.length).toBeGreaterThan(73_000);
    const wrong = rows.filter(({ g, j }) => {
      const [gy, gm, gd] = g.split('-').map(Number) as [number, number, number];
      const { jy, jm, jd } = toJalaali(gy, gm, gd);
      return j !== `${jy}-${pad(jm)}-${pad(jd)}`;
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('puts the first instant of a Tehran day in that day and the instant before in the one before, DST years included', async () => {
    const starts: Date[] = [];
    const expected: string[] = [];
    // Every third day from 1360 to 1420: the years with and without daylight saving time.
    for (let day = { jy: 1360, jm: 1, jd: 1 }; day.jy < 1420; day = nextJalaliDay(nextJalaliDay(nextJalaliDay(day)))) {
      starts.push(tehranDayStart(day));
      expected.push(`${day.jy}-${pad(day.jm)}-${pad(day.jd)}`);
    }
    const { rows } = await client.query<{ at: string; before: string; start: Date }>(
      `SELECT jalali_date(t) AS at, jalali_date(t - interval '1 millisecond') AS before,
              ((t AT TIME ZONE 'Asia/Tehran')::date::timestamp AT TIME ZONE 'Asia/Tehran') AS start
         FROM unnest($1::timestamptz[]) WITH ORDINALITY AS s(t, i) ORDER BY i`,
      [starts],
    );
    const mismatches = rows.flatMap((r, i) => {
      const start = starts[i]!;
      const out: string[] = [];
      if (r.at !== expected[i]) out.push(`${expected[i]}: SQL says ${r.at}`);
      if (r.before === expected[i]) out.push(`${expected[i]}: the instant before is still that day in SQL`);
      if (r.start.getTime() !== start.getTime()) out.push(`${expected[i]}: PostgreSQL starts it at ${r.start.toISOString()}, TS at ${start.toISOString()}`);
      if (jalaliDayKey(start) !== expected[i]) out.push(`${expected[i]}: TS names its start ${jalaliDayKey(start)}`);
      if (jalaliDayKey(new Date(start.getTime() - 1)) === expected[i]) out.push(`${expected[i]}: TS keeps the instant before in it`);
      return out;
    });
    expect(starts.length).toBeGreaterThan(7000);
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('shows the Tehran wall clock of any instant as PostgreSQL does', async () => {
    const instants = Array.from({ length: 5000 }, (_, i) => new Date(Date.UTC(1985, 0, 1) + i * 613_427_117));
    const { rows } = await client.query<{ wall: string; day: string }>(
      `SELECT to_char(t AT TIME ZONE 'Asia/Tehran', 'HH24:MI:SS') AS wall, jalali_date(t) AS day
         FROM unnest($1::timestamptz[]) WITH ORDINALITY AS s(t, i) ORDER BY i`,
      [instants],
    );
    const mismatches = rows.flatMap((r, i) => {
      const [day, time] = jalaliDateTime(instants[i]!).split(' ');
      const sqlDay = r.day.replaceAll('-', '/');
      return day === sqlDay && time === r.wall ? [] : [`${instants[i]!.toISOString()}: TS ${day} ${time}, SQL ${sqlDay} ${r.wall}`];
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});
