import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_STATS_SQL } from '../../src/domain/reports/store/payment-stats.js';
import { jalaliDayKey, tehranDayStart, type JalaliDay } from '../../src/domain/calendar/tehran-calendar.js';
import { gql, gqlOk, makeShop, startTestApp, type TestApp } from '../support/harness.js';
import { insertPayment, shopOf, type Shop } from './payment-rows.js';

const STATS = `query($projectId: ID, $from: String, $to: String, $groupBy: StatsPeriodKind) {
  paymentStats(projectId: $projectId, from: $from, to: $to, groupBy: $groupBy) {
    period confirmedCount confirmedAmount pendingCount expiredCount canceledCount rejectedCount reviewCount refundedAmount fees
  }
}`;

/** An instant on a Jalali day, Tehran wall clock. */
function tehran(day: JalaliDay, hh: number, mm = 0, ss = 0, ms = 0): Date {
  return new Date(tehranDayStart(day).getTime() + ((hh * 60 + mm) * 60 + ss) * 1000 + ms);
}

const D3 = { jy: 1405, jm: 9, jd: 3 };
const D4 = { jy: 1405, jm: 9, jd: 4 };
const D5 = { jy: 1405, jm: 9, jd: 5 };
const DEY1 = { jy: 1405, jm: 10, jd: 1 };

const zero = { confirmedCount: 0, confirmedAmount: '0', pendingCount: 0, expiredCount: 0, canceledCount: 0, rejectedCount: 0, reviewCount: 0, refundedAmount: '0', fees: '0' };

describe('paymentStats', () => {
  let app: TestApp;
  let db: pg.Client;
  let live: Shop & { apiKey: string; merchantKey: string };
  let sandbox: Shop & { apiKey: string };
  let stranger: Shop & { merchantKey: string };

  beforeAll(async () => {
    app = await startTestApp();
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    const a = await makeShop(app, { sandbox: false, credit: 10_000_000 });
    live = { ...a, ...(await shopOf(db, a, false)) };
    const b = await makeShop(app, { merchantKey: a.merchantKey });
    sandbox = { ...b, ...(await shopOf(db, b, true)) };
    const c = await makeShop(app, { sandbox: false, credit: 1_000_000 });
    stranger = { ...c, ...(await shopOf(db, c, false)) };

    // 1405-09-03: one confirmed (refunded in part), one pending waiting for review, one expired.
    await insertPayment(db, live, { status: 'confirmed', createdAt: tehran(D3, 0, 0), amountRequested: 100_000, code: 120, fee: 1_001, refunded: 20_000 });
    await insertPayment(db, live, { status: 'pending', createdAt: tehran(D3, 12, 0), review: true });
    await insertPayment(db, live, { status: 'expired', createdAt: tehran(D3, 23, 59, 59, 999) });
    // 1405-09-04: a deposit of another amount attached (received 200,000), a cancel, a reject, a pending.
    await insertPayment(db, live, { status: 'confirmed', createdAt: tehran(D4, 9, 15), amountRequested: 200_000, code: 250, amountReceived: 200_000, fee: 2_002 });
    await insertPayment(db, live, { status: 'canceled', createdAt: tehran(D4, 10, 0) });
    await insertPayment(db, live, { status: 'rejected', createdAt: tehran(D4, 11, 0) });
    await insertPayment(db, live, { status: 'pending', createdAt: tehran(D4, 23, 59, 59, 999) });
    // Outside a range that ends on 1405-09-04: the first instant of the next Tehran day.
    await insertPayment(db, live, { status: 'confirmed', createdAt: tehran(D5, 0, 0), amountRequested: 500_000, code: 10, fee: 5_000 });
    await insertPayment(db, live, { status: 'confirmed', createdAt: tehran(DEY1, 8, 0), amountRequested: 300_000, code: 30, fee: 3_000 });
    // The merchant's sandbox project, and another merchant, on the same day.
    await insertPayment(db, sandbox, { status: 'confirmed', createdAt: tehran(D4, 12, 0), amountRequested: 50_000, code: 10 });
    await insertPayment(db, stranger, { status: 'confirmed', createdAt: tehran(D4, 12, 0), amountRequested: 70_000, code: 10, fee: 1_000 });
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  const day3 = { ...zero, period: '1405-09-03', confirmedCount: 1, confirmedAmount: '100120', pendingCount: 1, expiredCount: 1, reviewCount: 1, refundedAmount: '20000', fees: '1001' };
  const day4 = { ...zero, period: '1405-09-04', confirmedCount: 1, confirmedAmount: '200000', pendingCount: 1, canceledCount: 1, rejectedCount: 1, fees: '2002' };

  it('counts a project’s payments per Jalali day (Tehran), the range’s Jalali ends inclusive', async () => {
    const data = await gqlOk(app.baseUrl, STATS, { from: '1405-09-03', to: '1405-09-04' }, live.apiKey);
    expect(data.paymentStats).toEqual([day3, day4]);
  });

  it('gives every day of the range a row, empty days with zeros', async () => {
    const data = await gqlOk(app.baseUrl, STATS, { from: '1405-09-02', to: '1405-09-05', groupBy: 'DAY' }, live.apiKey);
    expect(data.paymentStats.map((p: { period: string }) => p.period)).toEqual(['1405-09-02', '1405-09-03', '1405-09-04', '1405-09-05']);
    expect(data.paymentStats[0]).toEqual({ ...zero, period: '1405-09-02' });
    expect(data.paymentStats[3]).toMatchObject({ confirmedCount: 1, confirmedAmount: '500010', fees: '5000' });
  });

  it('adds up Jalali months', async () => {
    const data = await gqlOk(app.baseUrl, STATS, { from: '1405-09-01', to: '1405-10-30', groupBy: 'MONTH' }, live.apiKey);
    expect(data.paymentStats).toEqual([
      { ...zero, period: '1405-09', confirmedCount: 3, confirmedAmount: '800130', pendingCount: 2, expiredCount: 1, canceledCount: 1, rejectedCount: 1, reviewCount: 1, refundedAmount: '20000', fees: '8003' },
      { ...zero, period: '1405-10', confirmedCount: 1, confirmedAmount: '300030', fees: '3000' },
    ]);
  });

  it('takes RFC 3339 ends to the millisecond', async () => {
    const from = tehran(D3, 23, 59, 59, 999).toISOString();
    const to = tehran(D4, 9, 15).toISOString();
    const data = await gqlOk(app.baseUrl, STATS, { from, to }, live.apiKey);
    expect(data.paymentStats).toEqual([
      { ...zero, period: '1405-09-03', expiredCount: 1 },
      { ...zero, period: '1405-09-04', confirmedCount: 1, confirmedAmount: '200000', fees: '2002' },
    ]);
  });

  it('counts all of a merchant’s projects with its key, or one with projectId; live and sandbox never mixed', async () => {
    // Merchant-wide the default is live: the sandbox project's payment of that day is not counted.
    const all = await gqlOk(app.baseUrl, STATS, { from: '1405-09-04', to: '1405-09-04' }, live.merchantKey);
    expect(all.paymentStats).toEqual([day4]);
    const MODE = `query($sandbox: Boolean, $projectId: ID) { paymentStats(from: "1405-09-04", to: "1405-09-04", sandbox: $sandbox, projectId: $projectId) { confirmedCount confirmedAmount fees } }`;
    const test = await gqlOk(app.baseUrl, MODE, { sandbox: true }, live.merchantKey);
    expect(test.paymentStats).toEqual([{ confirmedCount: 1, confirmedAmount: '50010', fees: '0' }]);
    const liveAsked = await gqlOk(app.baseUrl, MODE, { sandbox: false }, live.merchantKey);
    expect(liveAsked.paymentStats).toEqual([{ confirmedCount: 1, confirmedAmount: '200000', fees: '2002' }]);
    // A named project counts in its own mode by default; asking for the other mode counts nothing.
    const sandboxProject = await gqlOk(app.baseUrl, MODE, { projectId: sandbox.projectId }, live.merchantKey);
    expect(sandboxProject.paymentStats).toEqual([{ confirmedCount: 1, confirmedAmount: '50010', fees: '0' }]);
    const crossed = await gqlOk(app.baseUrl, MODE, { projectId: sandbox.projectId, sandbox: false }, live.merchantKey);
    expect(crossed.paymentStats).toEqual([{ confirmedCount: 0, confirmedAmount: '0', fees: '0' }]);
    const ownKey = await gqlOk(app.baseUrl, MODE, {}, sandbox.apiKey);
    expect(ownKey.paymentStats).toEqual([{ confirmedCount: 1, confirmedAmount: '50010', fees: '0' }]);
    const one = await gqlOk(app.baseUrl, STATS, { projectId: live.projectId, from: '1405-09-04', to: '1405-09-04' }, live.merchantKey);
    expect(one.paymentStats).toEqual([day4]);
  });

  it('gives the whole range as one period (TOTAL), net of refunds', async () => {
    const TOTAL = `query { paymentStats(from: "1405-09-01", to: "1405-09-30", groupBy: TOTAL) { period confirmedCount confirmedAmount refundedAmount netAmount fees } }`;
    const data = await gqlOk(app.baseUrl, TOTAL, {}, live.merchantKey);
    expect(data.paymentStats).toEqual([
      { period: '1405-09-01_1405-09-30', confirmedCount: 3, confirmedAmount: '800130', refundedAmount: '20000', netAmount: '780130', fees: '8003' },
    ]);
  });

  it('names today and this Jalali month (Tehran) with range, and refuses range beside from/to', async () => {
    const today = jalaliDayKey(new Date());
    const RANGE = `query($range: StatsRange, $from: String) { paymentStats(range: $range, from: $from, groupBy: DAY) { period } }`;
    const day = await gqlOk(app.baseUrl, RANGE, { range: 'TODAY' }, live.apiKey);
    expect(day.paymentStats).toEqual([{ period: today }]);
    const month = await gqlOk(app.baseUrl, RANGE, { range: 'THIS_MONTH' }, live.apiKey);
    const periods = month.paymentStats.map((p: { period: string }) => p.period);
    expect(periods[0]).toBe(`${today.slice(0, 7)}-01`);
    expect(periods).toContain(today);
    expect(periods.every((p: string) => p.startsWith(today.slice(0, 7)))).toBe(true);
    expect(periods.length).toBeGreaterThanOrEqual(29);
    const both = await gql(app.baseUrl, RANGE, { range: 'TODAY', from: '1405-09-01' }, live.apiKey);
    expect(both.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'range' }] } });
  });

  it('counts nothing for a project the caller cannot see, exactly like an empty project', async () => {
    const foreign = await gqlOk(app.baseUrl, STATS, { projectId: stranger.projectId, from: '1405-09-04', to: '1405-09-04' }, live.merchantKey);
    expect(foreign.paymentStats).toEqual([{ ...zero, period: '1405-09-04' }]);
    const other = await gqlOk(app.baseUrl, STATS, { projectId: sandbox.projectId, from: '1405-09-04', to: '1405-09-04' }, live.apiKey);
    expect(other.paymentStats).toEqual([{ ...zero, period: '1405-09-04' }]);
    const malformed = await gqlOk(app.baseUrl, STATS, { projectId: 'nope', from: '1405-09-04', to: '1405-09-04' }, live.merchantKey);
    expect(malformed.paymentStats).toEqual([{ ...zero, period: '1405-09-04' }]);
  });

  it('refuses bad ranges as invalid_request naming the argument', async () => {
    const missingDay = await gql(app.baseUrl, STATS, { from: '1405-07-31', to: '1405-08-01' }, live.apiKey);
    expect(missingDay.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'from' }] } });
    const tooLong = await gql(app.baseUrl, STATS, { from: '1404-01-01', to: '1405-09-04' }, live.apiKey);
    expect(tooLong.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', details: { fields: [{ field: 'to' }] } });
  });

  it('needs a project or merchant key', async () => {
    const res = await gql(app.baseUrl, STATS, { from: '1405-09-04', to: '1405-09-04' });
    expect(res.errors?.[0]?.extensions.code).toBe('unauthorized');
  });

  it('is served by an index: merchant-wide by an index-only scan of payments_merchant_created_idx', async () => {
    // Another merchant's busy fortnight before the same days: the merchant's own payments are few
    // among many, as in production, and VACUUM sets the visibility map for index-only reads.
    await db.query(
      `INSERT INTO payments (project_id, merchant_id, card_id, amount_requested, code, amount_final, amount_mode, token, expires_at, late_until, sandbox, created_at, fee_amount, fee_state, fee_stripe)
       SELECT $1, $2, $3, 100000, 10 * (i % 9000), 100000 + 10 * (i % 9000), 'unique_code', lpad(i::text, 43, 'T'), now(), now(), false,
              $4::timestamptz + interval '2 days' - i * interval '1 minute', 1000, 'reserved', 0
         FROM generate_series(1, 20000) i`,
      [stranger.projectId, stranger.merchantId, stranger.cardId, tehranDayStart(D3)],
    );
    await db.query('VACUUM ANALYZE payments');
    const planOf = async (projectId: string | null) => {
      const values = [`'${live.merchantId}'`, projectId ? `'${projectId}'` : 'NULL', 'false', `'${tehranDayStart(D3).toISOString()}'`, `'${tehranDayStart(D5).toISOString()}'`, `'DAY'`, projectId ? 'NULL' : 'false', `''`];
      const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${PAYMENT_STATS_SQL.replaceAll(/\$(\d)/g, (_m, n: string) => values[Number(n) - 1]!)}`);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    const merchantWide = await planOf(null);
    expect(merchantWide).toMatch(/Index Only Scan using payments_merchant_created_idx on payments/);
    const oneProject = await planOf(live.projectId);
    expect(oneProject).toMatch(/Index (Only )?Scan using payments_(merchant|project)_created_idx on payments/);
    expect(merchantWide + oneProject).not.toMatch(/Seq Scan on payments/);
  });
});
