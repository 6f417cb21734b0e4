/**
 * Tehran time for the dashboard: the browser's time-zone data for 'Asia/Tehran', as the server reads
 * it (src/domain/calendar/tehran-calendar.ts; this app cannot import the server's code). No offset
 * is written down: Iran has kept +03:30 all year since 2022, and the day its rules change only the
 * time-zone data changes.
 */
export const TEHRAN = 'Asia/Tehran';

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: TEHRAN,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** Tehran's offset from UTC at an instant, in milliseconds. */
function offsetMs(t: number): number {
  const p: Record<string, number> = {};
  for (const part of wallClock.formatToParts(new Date(t))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0) - Math.floor(t / 1000) * 1000;
}

/** The Tehran wall clock at an instant, as a UTC-based Date (read it with the getUTC… methods). */
export function tehranWall(date: Date): Date {
  const t = date.getTime();
  return new Date(t + offsetMs(t));
}

const HALF_DAY = 43_200_000;

/**
 * The instant a Tehran wall clock shows, given as `Date.UTC` of its fields. A time shown twice
 * (clocks set back) is its first instant; one never shown (clocks set forward) is read with the
 * offset before the jump, as the server and PostgreSQL read it.
 */
export function tehranInstant(wallAsUtc: number): Date {
  const before = offsetMs(wallAsUtc - HALF_DAY);
  const after = offsetMs(wallAsUtc + HALF_DAY);
  if (before === after) return new Date(wallAsUtc - before);
  const shown = [before, after].filter((offset) => offsetMs(wallAsUtc - offset) === offset);
  return new Date(wallAsUtc - (shown.length ? Math.max(...shown) : before));
}
