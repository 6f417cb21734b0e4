import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDuePayments } from '../../src/domain/payments/expiry-batch.js';
import { endOverdueLateWindows } from '../../src/domain/payments/expiry.js';
import { CLAIM_LATE_WINDOWS_OVER } from '../../src/domain/payments/store/locks.js';
import { holdPaymentRow, planWithoutSeqScan } from '../support/db-rows.js';
import { createPaymentRest, gaugeValue, gqlOk, makeShop, startAppWithClient, startTestApp, type TestApp } from '../support/harness.js';

// The late-window sweep (jobs/end-late-windows.ts) gives a live payment's reserved fee back once
// its late window is over; every worker process runs it, claiming rows with SKIP LOCKED. The API
// here runs no sweep of its own: the sweeps are called directly, several at once.
let app: TestApp;
let client: pg.Client;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ app, client, stop } = await startAppWithClient());
});
afterAll(() => stop());

const credit = async (merchantKey: string) =>
  (await gqlOk(app.baseUrl, `{ viewer { merchant { credit { balance reserved available } } } }`, {}, merchantKey)).viewer.merchant.credit;

/** `count` payments made ten at a time, the i-th of `amountOf(i)` with the key `apiKeyOf(i)`; their ids in order. */
async function createMany(count: number, apiKeyOf: (i: number) => string, amountOf: (i: number) => number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, (_, k) => createPaymentRest(app, apiKeyOf(i + k), { amount: amountOf(i + k) })),
    );
    for (const res of batch) {
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
  }
  return ids;
}

/** Moves payments' deadlines into the past: expired `expiredAgo` ms ago, late window over `overAgo` ms ago. */
async function backdate(ids: string[], expiredAgo: number, overAgo: number | null) {
  await app.deps.prisma.payment.updateMany({
    where: { id: { in: ids } },
    data: { expiresAt: new Date(Date.now() - expiredAgo), ...(overAgo === null ? {} : { lateUntil: new Date(Date.now() - overAgo) }) },
  });
}

describe('the late-window sweep', () => {
  it('an expiry writes no job for the fee it holds; sweeps running at once give each fee back once, and none still inside its window', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 100_000_000, settings: { maxCode: 9999 } });
    const ids = await createMany(60, () => shop.apiKey, (i) => 100_000 + (i % 3) * 1_000_000);
    const inWindow = (await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).body.id as string;
    await backdate([...ids, inWindow], 2_000, null);
    expect(await expireDuePayments(app.deps)).toBe(ids.length + 1);
    const jobs = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pgboss.job WHERE data->>'paymentId' = ANY($1::text[])`, [[...ids, inWindow]]);
    expect(jobs.rows[0]!.n).toBe('0');
    const reservedBefore = BigInt((await credit(shop.merchantKey)).reserved);

    await backdate(ids, 2_000, 1_000);
    // Four processes' worth of sweeps, small batches so that they meet on the same rows.
    const counts = await Promise.all(Array.from({ length: 4 }, () => endOverdueLateWindows(app.deps, { batch: 7 })));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(ids.length);
    expect(counts.filter((c) => c > 0).length).toBeGreaterThan(1);

    const rows = await app.deps.prisma.payment.findMany({ where: { id: { in: ids } }, select: { status: true, feeState: true, feeAmount: true } });
    expect(rows.every((r) => r.status === 'expired' && r.feeState === 'released')).toBe(true);
    const fees = rows.reduce((sum, r) => sum + BigInt(r.feeAmount), 0n);
    const after = await credit(shop.merchantKey);
    expect(BigInt(after.reserved)).toBe(reservedBefore - fees);
    // Still inside its late window: its fee stays reserved.
    expect((await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: inWindow } })).feeState).toBe('reserved');
    expect(await endOverdueLateWindows(app.deps)).toBe(0);
  }, 60_000);

  it('sweeps at once over many merchants’ fees never deadlock on merchant rows', async () => {
    const deadlocks = async () => {
      await new Promise((r) => setTimeout(r, 1_500)); // the statistics are flushed about once a second
      const { rows } = await client.query<{ n: string }>('SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()');
      return Number(rows[0]!.n);
    };
    // Counted from here, while the payments are made (their creates and expiry must not deadlock either).
    const counted = deadlocks();
    const shops = await Promise.all(Array.from({ length: 6 }, () => makeShop(app, { sandbox: false, credit: 10_000_000, settings: { maxCode: 9999 } })));
    const ids = await createMany(72, (i) => shops[i % shops.length]!.apiKey, (i) => 100_000 + i * 10_000);
    await backdate(ids, 10_000, null);
    expect(await expireDuePayments(app.deps)).toBe(ids.length);
    // Late windows ended in a shuffled order, so batches meet the merchants in different orders.
    const seed = Number(process.env.TEST_SEED ?? Date.now() % 100_000);
    let state = seed;
    const random = () => ((state = (state * 48_271) % 2_147_483_647) / 2_147_483_647);
    const lateUntils = ids.map(() => new Date(Date.now() - 1_000 - Math.floor(random() * 5_000)));
    await client.query(`UPDATE payments p SET late_until = v.t FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, t) WHERE p.id = v.id`, [ids, lateUntils]);
    const before = await counted;
    const counts = await Promise.all(Array.from({ length: 4 }, () => endOverdueLateWindows(app.deps, { batch: 5 })));
    expect(counts.reduce((a, b) => a + b, 0), `seed ${seed}`).toBe(ids.length);
    expect(await deadlocks(), `seed ${seed}`).toBe(before);
  }, 60_000);

  it('a payment still pending past its late window (its expiry lagging) is expired, with its event, and its fee given back', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, settings: { maxCode: 99 } });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 60_000 })).body;
    await backdate([p.id], 3_000, 1_000);
    expect(await endOverdueLateWindows(app.deps)).toBe(1);
    const row = await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect(row).toMatchObject({ status: 'expired', feeState: 'released' });
    expect(await app.deps.prisma.event.count({ where: { paymentId: p.id, type: 'payment.expired' } })).toBe(1);
    expect(await credit(shop.merchantKey)).toMatchObject({ reserved: '0', available: '1000000' });
  });

  it('skips a payment another transaction holds, and gives its fee back on a later tick', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, settings: { maxCode: 99 } });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 70_000 })).body;
    await backdate([p.id], 3_000, null);
    expect(await expireDuePayments(app.deps)).toBe(1);
    await backdate([p.id], 3_000, 1_000);
    const release = await holdPaymentRow(app.deps.prisma, p.id);
    // Not waited for: the sweep returns at once without it.
    expect(await endOverdueLateWindows(app.deps)).toBe(0);
    await release();
    expect(await endOverdueLateWindows(app.deps)).toBe(1);
    expect((await app.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } })).feeState).toBe('released');
  });

  it('/metrics shows how long ago the oldest reserved fee’s late window ended, 0 once the sweep ran', async () => {
    const shop = await makeShop(app, { sandbox: false, credit: 1_000_000, settings: { maxCode: 99 } });
    const p = (await createPaymentRest(app, shop.apiKey, { amount: 90_000 })).body;
    const gauge = () => gaugeValue(app.baseUrl, 'gateway_late_window_overdue_seconds');
    expect(await gauge()).toBe(0);
    await backdate([p.id], 60_000, 30_000);
    const overdue = await gauge();
    expect(overdue).toBeGreaterThanOrEqual(30);
    expect(overdue).toBeLessThan(60);
    expect(await endOverdueLateWindows(app.deps)).toBe(1);
    expect(await gauge()).toBe(0);
  });

  it('finds the fees through payments_reserved_late_idx, bounded by the deadline', async () => {
    const text = await planWithoutSeqScan(client, CLAIM_LATE_WINDOWS_OVER, [50]);
    expect(text).toContain('payments_reserved_late_idx');
    expect(text).toMatch(/Index Cond: \(late_until <= statement_timestamp\(\)\)/);
  });
});

describe('a worker process', () => {
  it('gives a fee back within a few seconds of the late window’s end, with no job for it', async () => {
    const worker = await startTestApp({ role: 'all', databaseUrl: app.databaseUrl });
    try {
      const shop = await makeShop(worker, { sandbox: false, credit: 1_000_000, settings: { paymentTimeLimitSeconds: 5, lateWindowSeconds: 2 } });
      const p = (await createPaymentRest(worker, shop.apiKey, { amount: 20_000 })).body;
      // Its five seconds spent at once (the deadlines moved back together): expired now, and its
      // late window of two seconds ends on the real clock.
      const created = await worker.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
      const shift = created.expiresAt.getTime() - Date.now();
      const moved = await worker.deps.prisma.payment.update({
        where: { id: p.id },
        data: { expiresAt: new Date(created.expiresAt.getTime() - shift), lateUntil: new Date(created.lateUntil.getTime() - shift) },
      });
      const lateUntil = moved.lateUntil.getTime();
      let row = await worker.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
      while (row.feeState !== 'released' && Date.now() < lateUntil + 10_000) {
        await new Promise((r) => setTimeout(r, 100));
        row = await worker.deps.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
      }
      const seenAt = Date.now();
      expect(row).toMatchObject({ status: 'expired', feeState: 'released' });
      // Not before the window ended (seen released only after it), and within a few seconds of it.
      expect(seenAt).toBeGreaterThanOrEqual(lateUntil);
      expect(seenAt - lateUntil).toBeLessThan(5_000);
      const jobs = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pgboss.job WHERE data->>'paymentId' = $1`, [p.id]);
      expect(jobs.rows[0]!.n).toBe('0');
    } finally {
      await worker.stop();
    }
  }, 30_000);
});
