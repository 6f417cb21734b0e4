import fc from 'fast-check';
import { expect } from 'vitest';
import { errorCatalog } from '../../src/errors.js';
import type { TestApp } from '../support/harness.js';

/** Strings a hostile client sends: NUL, unpaired surrogates, huge digit runs, odd dates, injection. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '__proto__',
  'constructor',
  '9'.repeat(25),
  '-1',
  '1e309',
  'NaN',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '۱۲۳۴۵۶۷۸',
  '<script>alert(1)</script>',
  "'; drop table payments; --",
  'https://169.254.169.254/latest',
  'x'.repeat(600),
  '%00',
  '\u202e\ufeff',
];

export function hostileString(known: string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength: 24 }),
    fc.string({ unit: 'binary', maxLength: 16 }),
    fc.constantFrom(...HOSTILE_STRINGS, ...known),
  );
}

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 10_000, 2 ** 53, 1e21, 9223372036854775808, Number.MAX_SAFE_INTEGER),
);

/** Any JSON value, with hostile leaves. */
export function hostileJson(known: string[] = []): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(hostileString(known), hostileNumber, fc.boolean(), fc.constant(null));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(hostileString(), tie('value'), { maxKeys: 3 }),
    ),
  })).value;
}

/** Row counts of every table a request could write, so a refused request can be shown to write nothing. */
export async function rowCounts(app: TestApp): Promise<Record<string, number>> {
  const tables = await app.deps.prisma.$queryRawUnsafe<{ table_name: string }[]>(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'
       and table_name not in ('_prisma_migrations', 'rate_limits', 'webhook_attempts', 'webhook_endpoint_slots')`,
  );
  const sql = tables.map((t) => `select '${t.table_name}' as t, count(*)::int as n from "${t.table_name}"`).join(' union all ');
  const rows = await app.deps.prisma.$queryRawUnsafe<{ t: string; n: number }[]>(sql);
  return Object.fromEntries(rows.map((r) => [r.t, r.n]));
}

/**
 * Row counts as they stood before the request under test, re-read only after a request that was
 * accepted (a refused one must have left them as they were): one count query per request.
 */
export class RowCountGuard {
  private counts: Record<string, number> | undefined;
  constructor(private readonly app: TestApp) {}

  async before(): Promise<Record<string, number>> {
    this.counts ??= await rowCounts(this.app);
    return this.counts;
  }

  /** After a request: the current counts (to compare when refused), remembered for the next one. */
  async after(): Promise<Record<string, number>> {
    this.counts = await rowCounts(this.app);
    return this.counts;
  }
}

/** A catalog code other than internal_error. */
export function expectCatalogCode(code: unknown, context: string) {
  expect(Object.keys(errorCatalog), context).toContain(code);
  expect(code, context).not.toBe('internal_error');
}

/** Runs should be few: the whole fuzz budget is a few seconds per file. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 10);
