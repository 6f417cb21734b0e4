import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jalaliToUtc } from '../../src/domain/sms/jalali.js';
import { insertPaymentRow } from '../support/db-rows.js';
import { createPaymentRest, gqlOk, makeShop, startTestApp, type TestApp } from '../support/harness.js';

// Card choice (docs/dashboard.md "Cards"): this Jalali month's (Tehran) pending + confirmed sum and
// count against a card's monthlyAmountCap / monthlyCountCap, beside the daily caps.
let app: TestApp;
let client: pg.Client;

beforeAll(async () => {
  app = await startTestApp();
  client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await app.stop();
});

const monthStart = (year: number, month: number) => jalaliToUtc({ year, month, day: 1, hour: 0, minute: 0 })!;
const previous = (year: number, month: number): [number, number] => (month === 1 ? [year - 1, 12] : [year, month - 1]);

async function thisMonthStart(): Promise<Date> {
  const { rows } = await client.query<{ start: Date }>('SELECT jalali_month_start(now()) AS start');
  return rows[0]!.start;
}

type Shop = Awaited<ReturnType<typeof makeShop>>;

/** A payment on the shop's card stamped at `createdAt`, as if it had been made then. */
async function paymentAt(shop: Shop, createdAt: Date, amount = 100_000) {
  const { rows } = await client.query<{ merchant_id: string }>('SELECT merchant_id FROM cards WHERE id = $1', [shop.cardId]);
  return insertPaymentRow(
    client,
    { merchant: rows[0]!.merchant_id, project: shop.projectId, card: shop.cardId },
    { amount_requested: amount, code: 10, amount_final: amount + 10, created_at: createdAt, updated_at: createdAt },
  );
}

describe('jalali_month_start (SQL) against the TypeScript Jalali conversion', () => {
  it('gives the start of every Jalali month from 1395 to 1410 at, just after and just before it', async () => {
    // Given every month start of 16 Jalali years, by src/domain/sms/jalali.ts (Tehran wall time)
    const months: { start: Date; before: Date }[] = [];
    for (let year = 1395; year <= 1410; year++) {
      for (let month = 1; month <= 12; month++) months.push({ start: monthStart(year, month), before: monthStart(...previous(year, month)) });
    }
    // When the SQL function is asked for an instant at, just before and inside each month
    const { rows } = await client.query<{ at: Date; mid: Date; last: Date }>(
      `SELECT jalali_month_start(s) AS at, jalali_month_start(s + interval '14 days 13 hours') AS mid,
              jalali_month_start(s - interval '1 millisecond') AS last
         FROM unnest($1::timestamptz[]) WITH ORDINALITY AS t(s, i) ORDER BY i`,
      [months.map((m) => m.start)],
    );
    // Then it names the same month starts
    expect(rows.map((r) => r.at.toISOString())).toEqual(months.map((m) => m.start.toISOString()));
    expect(rows.map((r) => r.mid.toISOString())).toEqual(months.map((m) => m.start.toISOString()));
    expect(rows.map((r) => r.last.toISOString())).toEqual(months.map((m) => m.before.toISOString()));
  });

  it('knows Esfand of a leap year has 30 days and of another 29', async () => {
    const { rows } = await client.query<{ leap: Date; common: Date }>(
      `SELECT jalali_month_start($1::timestamptz) AS leap, jalali_month_start($2::timestamptz) AS common`,
      [jalaliToUtc({ year: 1403, month: 12, day: 30, hour: 23, minute: 59 }), jalaliToUtc({ year: 1404, month: 12, day: 29, hour: 23, minute: 59 })],
    );
    expect(rows[0]!.leap.toISOString()).toBe(monthStart(1403, 12).toISOString());
    expect(rows[0]!.common.toISOString()).toBe(monthStart(1404, 12).toISOString());
    expect(monthStart(1405, 1).getTime() - monthStart(1404, 12).getTime()).toBe(29 * 86_400_000);
  });
});

describe('monthly caps', () => {
  it('count only this Jalali month’s payments: last month’s last millisecond is not counted, this month’s first is', async () => {
    // Given a card with at most 3 payments a month, 5 payments in the last millisecond of last
    // month and 1 at the first instant of this one
    const shop = await makeShop(app, { card: { monthlyCountCap: 3 } });
    const start = await thisMonthStart();
    for (let i = 0; i < 5; i++) await paymentAt(shop, new Date(start.getTime() - 1), 100_000 + i * 1000);
    await paymentAt(shop, start);
    // When the shop creates payments now
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createPaymentRest(app, shop.apiKey, { amount: 50_000 }));
    // Then two fit in this month, and the third is refused with the monthly reason
    expect(made.map((r) => r.status)).toEqual([201, 201, 503]);
    expect(made[2]!.body.details.reasons).toEqual(['monthly_count_cap_reached']);
  });

  it('sum this month’s pending and confirmed amountFinal with the new one against the amount cap', async () => {
    // Given a card capped at 200,000 rials a month, with 900,000 spent last month and 100,010 this month
    const shop = await makeShop(app, { card: { monthlyAmountCap: '200000' } });
    const start = await thisMonthStart();
    await paymentAt(shop, new Date(start.getTime() - 1000), 900_000);
    await paymentAt(shop, new Date(start.getTime() + 1000), 100_000);
    // When 90,000 (with its code) still fits, and 20,000 more would not
    expect((await createPaymentRest(app, shop.apiKey, { amount: 90_000 })).status).toBe(201);
    const over = await createPaymentRest(app, shop.apiKey, { amount: 20_000 });
    // Then the second is 503 with monthly_amount_cap_reached
    expect(over.status).toBe(503);
    expect(over.body.details.reasons).toEqual(['monthly_amount_cap_reached']);
  });

  it('do not count canceled, rejected or expired payments', async () => {
    const shop = await makeShop(app, { card: { monthlyCountCap: 1 } });
    const start = await thisMonthStart();
    await paymentAt(shop, new Date(start.getTime() + 1000));
    await client.query(`UPDATE payments SET status = 'canceled', canceled_at = now() WHERE card_id = $1`, [shop.cardId]);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).status).toBe(201);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).body.details.reasons).toEqual(['monthly_count_cap_reached']);
  });

  it('report every reason that applied across cards, daily and monthly alike', async () => {
    // Given one card at its daily count cap and another at its monthly count cap
    const shop = await makeShop(app, { card: { dailyCountCap: 1 } });
    await gqlOk(
      app.baseUrl,
      `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`,
      { input: { projectId: shop.projectId, bankCode: 'saman', cardNumber: '6219861012345678', holderName: 'B', monthlyCountCap: 1 } },
      shop.merchantKey,
    );
    expect((await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).status).toBe(201);
    expect((await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).status).toBe(201);
    // When a third payment is asked for
    const refused = await createPaymentRest(app, shop.apiKey, { amount: 50_000 });
    // Then both reasons are given
    expect(refused.status).toBe(503);
    expect([...refused.body.details.reasons].sort()).toEqual(['daily_count_cap_reached', 'monthly_count_cap_reached']);
  });

  it('are set, shown and removed through createCard, updateCard and the Card type', async () => {
    const shop = await makeShop(app);
    const CARD = `monthlyAmountCap monthlyCountCap dailyAmountCap dailyCountCap`;
    const set = await gqlOk(
      app.baseUrl,
      `mutation($id: ID!) { updateCard(id: $id, input: { monthlyAmountCap: "5000000", monthlyCountCap: 40 }) { ${CARD} } }`,
      { id: shop.cardId },
      shop.merchantKey,
    );
    expect(set.updateCard).toEqual({ monthlyAmountCap: '5000000', monthlyCountCap: 40, dailyAmountCap: null, dailyCountCap: null });
    const cleared = await gqlOk(
      app.baseUrl,
      `mutation($id: ID!) { updateCard(id: $id, input: { monthlyAmountCap: null, monthlyCountCap: null }) { ${CARD} } }`,
      { id: shop.cardId },
      shop.merchantKey,
    );
    expect(cleared.updateCard).toEqual({ monthlyAmountCap: null, monthlyCountCap: null, dailyAmountCap: null, dailyCountCap: null });
  });
});
