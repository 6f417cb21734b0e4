import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementLog } from '../../src/db/pool.js';
import { insertPaymentRow } from '../support/db-rows.js';
import { createPaymentRest, gql, gqlOk, makeMerchant, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { addSignedInUser, gqlOkAs, USERS_ENV } from '../users/support.js';

// docs/dashboard.md "Cards": caps used today and this month. Card.usedToday
// and Card.usedThisMonth count what the create function (payment_claim_code in
// src/domain/payments/sql/create_payment.sql) counts against the caps, so each figure is checked
// here where that function starts refusing: at the cap, with the cap's 503 reason.
let app: TestApp;
let client: pg.Client;

beforeAll(async () => {
  app = await startTestApp({ env: USERS_ENV });
  client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await app.stop();
});

type Usage = { amount: string; count: number; since: string };
type CardUsage = { usedToday: Usage; usedThisMonth: Usage };

const USAGE = `query($id: ID!) { node(id: $id) { ... on Card { usedToday { amount count since } usedThisMonth { amount count since } } } }`;

async function usage(cardId: string, merchantKey: string): Promise<CardUsage> {
  const data = await gqlOk(app.baseUrl, USAGE, { id: cardId }, merchantKey);
  expect(data.node).not.toBeNull();
  return data.node as CardUsage;
}

const setCard = (shop: { cardId: string; merchantKey: string }, input: Record<string, unknown>) =>
  gqlOk(app.baseUrl, `mutation($id: ID!, $input: UpdateCardInput!) { updateCard(id: $id, input: $input) { id } }`, { id: shop.cardId, input }, shop.merchantKey);

/** The create function's period starts, read from the database as it reads them. */
async function bounds(): Promise<{ day: Date; month: Date }> {
  const { rows } = await client.query<{ day: Date; month: Date }>(
    `SELECT date_trunc('day', now() AT TIME ZONE 'Asia/Tehran') AT TIME ZONE 'Asia/Tehran' AS day, jalali_month_start(now()) AS month`,
  );
  return rows[0]!;
}

const created = async (shop: { apiKey: string }, amount: number) => {
  const res = await createPaymentRest(app, shop.apiKey, { amount });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; amountFinal: string };
};

const refusal = async (shop: { apiKey: string }, amount: number) => {
  const res = await createPaymentRest(app, shop.apiKey, { amount });
  expect(res.status, res.text).toBe(503);
  return res.body.details.reasons as string[];
};

describe('Card.usedToday and Card.usedThisMonth', () => {
  it('start at zero, with the periods’ starts: midnight Tehran time today and the Jalali month’s first day', async () => {
    const shop = await makeShop(app);
    const { day, month } = await bounds();
    expect(await usage(shop.cardId, shop.merchantKey)).toEqual({
      usedToday: { amount: '0', count: 0, since: day.toISOString() },
      usedThisMonth: { amount: '0', count: 0, since: month.toISOString() },
    });
  });

  it('count today’s payments up to the daily count cap: at 2 of 2 the next create is refused (daily_count_cap_reached) and counts nothing', async () => {
    const shop = await makeShop(app, { card: { dailyCountCap: 2 } });
    const a = await created(shop, 50_000);
    expect((await usage(shop.cardId, shop.merchantKey)).usedToday).toMatchObject({ amount: a.amountFinal, count: 1 });
    const b = await created(shop, 60_000);
    const atCap = await usage(shop.cardId, shop.merchantKey);
    expect(atCap.usedToday).toMatchObject({ amount: String(BigInt(a.amountFinal) + BigInt(b.amountFinal)), count: 2 });
    expect(atCap.usedThisMonth).toMatchObject({ amount: atCap.usedToday.amount, count: 2 });

    expect(await refusal(shop, 70_000)).toEqual(['daily_count_cap_reached']);
    expect(await usage(shop.cardId, shop.merchantKey)).toEqual(atCap);
  });

  it('sum amountFinal against the daily amount cap: a payment that would pass it is refused (daily_amount_cap_reached), one that reaches it exactly is not', async () => {
    // maxCode 1: every code is 10 rials, so each amountFinal is known before the create.
    const shop = await makeShop(app, { settings: { maxCode: 1 }, card: { dailyAmountCap: 300_000 } });
    await created(shop, 100_000);
    await created(shop, 150_000);
    expect((await usage(shop.cardId, shop.merchantKey)).usedToday).toMatchObject({ amount: '250020', count: 2 });
    // 250,020 + 50,000 > 300,000; 250,020 + 49,980 = 300,000.
    expect(await refusal(shop, 49_990)).toEqual(['daily_amount_cap_reached']);
    await created(shop, 49_970);
    const used = await usage(shop.cardId, shop.merchantKey);
    expect(used.usedToday).toMatchObject({ amount: '300000', count: 3 });
    expect(await refusal(shop, 10_000)).toEqual(['daily_amount_cap_reached']);
  });

  it('count only pending and confirmed payments of the period, as the create function does: its monthly caps refuse exactly at the figures shown', async () => {
    const shop = await makeShop(app, { settings: { maxCode: 1 } });
    const { day, month } = await bounds();
    const ids = { merchant: (await client.query('SELECT merchant_id FROM cards WHERE id = $1', [shop.cardId])).rows[0].merchant_id, project: shop.projectId, card: shop.cardId };
    const row = (createdAt: Date, amount: number, extra: Record<string, unknown> = {}) =>
      insertPaymentRow(client, ids, { amount_requested: amount, code: 10, amount_final: amount + 10, created_at: createdAt, updated_at: createdAt, ...extra });
    const now = new Date();
    // Counted: a confirmed payment (a real deposit) and pending ones today, at the month's first instant and just before today.
    const confirmed = await created(shop, 40_000);
    const deposit = await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: confirmed.id } });
    expect(deposit.body.payment.status).toBe('confirmed');
    await row(new Date(day.getTime() + 1), 11_000);
    await row(month, 12_000);
    await row(new Date(day.getTime() - 1), 13_000);
    // Not counted: last month's last instant, and every payment that ended otherwise.
    await row(new Date(month.getTime() - 1), 900_000);
    await row(now, 21_000, { status: 'expired', expired_at: now });
    await row(now, 22_000, { status: 'canceled', canceled_at: now });
    await row(now, 23_000, { status: 'rejected', rejected_at: now, reject_reason: 'never paid' });

    // What each period holds: the month's first instant and just before today are today only when
    // today is the month's first day.
    const inToday = (at: Date) => at >= day;
    const counted = [
      [now, 40_010],
      [new Date(day.getTime() + 1), 11_010],
      [month, 12_010],
      [new Date(day.getTime() - 1), 13_010],
    ].filter(([at]) => (at as Date) >= month) as [Date, number][];
    const today = counted.filter(([at]) => inToday(at));
    const sum = (list: [Date, number][]) => String(list.reduce((s, [, a]) => s + a, 0));
    const used = await usage(shop.cardId, shop.merchantKey);
    expect(used.usedToday).toMatchObject({ amount: sum(today), count: today.length });
    expect(used.usedThisMonth).toMatchObject({ amount: sum(counted), count: counted.length });

    // The month's count cap one above the figure: one more payment, then monthly_count_cap_reached.
    await setCard(shop, { monthlyCountCap: used.usedThisMonth.count + 1 });
    await created(shop, 30_000);
    expect(await refusal(shop, 31_000)).toEqual(['monthly_count_cap_reached']);
    // The month's amount cap at the figure plus a 20,010 payment: 20,000 fits exactly, 20,010 passes it.
    const before = await usage(shop.cardId, shop.merchantKey);
    expect(before.usedThisMonth.count).toBe(used.usedThisMonth.count + 1);
    await setCard(shop, { monthlyCountCap: null, monthlyAmountCap: String(BigInt(before.usedThisMonth.amount) + 20_010n) });
    expect(await refusal(shop, 20_010)).toEqual(['monthly_amount_cap_reached']);
    await created(shop, 20_000);
    const after = await usage(shop.cardId, shop.merchantKey);
    expect(after.usedThisMonth.amount).toBe(String(BigInt(before.usedThisMonth.amount) + 20_010n));
    expect(await refusal(shop, 10_000)).toEqual(['monthly_amount_cap_reached']);
  });

  it('reads a page of cards in one statement, each card its own figures, for a dashboard session too', async () => {
    const { merchantId, merchantKey } = await makeMerchant(app);
    const shops = [];
    for (let i = 0; i < 3; i++) shops.push(await makeShop(app, { merchantKey, card: { cardNumber: `610433781234567${i}` } }));
    await created(shops[0]!, 50_000);
    await created(shops[0]!, 51_000);
    await created(shops[2]!, 52_000);
    // A viewer reads them: every role reads everything of its merchant.
    const viewer = await addSignedInUser(app, merchantId, 'viewer');
    const PAGE = `{ viewer { merchant { projects { cards { id usedToday { count } usedThisMonth { count } } } } } }`;
    statementLog.names = [];
    let data;
    try {
      data = await gqlOkAs(app, viewer.cookie, PAGE);
      expect(statementLog.names.filter((n) => n === 'card-usage')).toHaveLength(1);
    } finally {
      statementLog.names = null;
    }
    const cards = data.viewer.merchant.projects.flatMap((p: { cards: unknown[] }) => p.cards);
    const byId = new Map(cards.map((c: { id: string; usedToday: { count: number } }) => [c.id, c.usedToday.count]));
    expect([byId.get(shops[0]!.cardId), byId.get(shops[1]!.cardId), byId.get(shops[2]!.cardId)]).toEqual([2, 0, 1]);
  });

  it('are not visible for another merchant’s card', async () => {
    const shop = await makeShop(app);
    await created(shop, 50_000);
    const other = await makeMerchant(app);
    const asOther = await gql(app.baseUrl, USAGE, { id: shop.cardId }, other.merchantKey);
    expect(asOther.errors).toBeUndefined();
    expect(asOther.data.node).toBeNull();
    const project = await gql(app.baseUrl, `query($id: ID!) { node(id: $id) { ... on Project { cards { usedToday { count } } } } }`, { id: shop.projectId }, other.merchantKey);
    expect(project.errors).toBeUndefined();
    expect(project.data.node).toBeNull();
    const own = await gqlOk(app.baseUrl, `{ viewer { merchant { projects { cards { id } } } } }`, {}, other.merchantKey);
    expect(own.viewer.merchant.projects.flatMap((p: { cards: { id: string }[] }) => p.cards.map((c) => c.id))).not.toContain(shop.cardId);
  });
});
