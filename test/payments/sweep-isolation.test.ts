import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { expireDuePayments } from '../../src/domain/payments/expiry-batch.js';
import { endOverdueLateWindows } from '../../src/domain/payments/expiry.js';
import { oneByOne } from '../../src/domain/payments/sweeps.js';
import { createPaymentRest, makeShop, startAppWithClient, type TestApp } from '../support/harness.js';

// A payment the database refuses to change (here a trigger of the test's own, as a guard refusing
// one row would) must not stop a sweep for every other payment: the sweep's batch fails, and its
// payments go one by one instead. The API here runs no sweep of its own.
let app: TestApp;
let client: pg.Client;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ app, client, stop } = await startAppWithClient());
  await client.query(`
    CREATE TABLE test_poisoned (id uuid PRIMARY KEY);
    CREATE FUNCTION test_poison() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM test_poisoned WHERE id = NEW.id) THEN RAISE EXCEPTION 'payment % refused by the test', NEW.id; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER test_poison BEFORE UPDATE ON payments FOR EACH ROW EXECUTE FUNCTION test_poison();`);
});
afterAll(async () => {
  await client.query('DROP TRIGGER test_poison ON payments; DROP FUNCTION test_poison(); DROP TABLE test_poisoned;');
  await stop();
});

async function livePayments(count: number): Promise<string[]> {
  const shop = await makeShop(app, { sandbox: false, credit: 10_000_000, settings: { maxCode: 999 } });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await createPaymentRest(app, shop.apiKey, { amount: 100_000 + i * 10_000 })).body.id);
  return ids;
}

/** Deadlines in the past, the first payment's the earliest: it heads every batch. */
async function backdate(ids: string[], column: 'expires_at' | 'late_until') {
  for (const [i, id] of ids.entries()) {
    await client.query(`UPDATE payments SET ${column} = now() - interval '1 minute' + $2 * interval '1 second' WHERE id = $1`, [id, i]);
  }
}

describe('a payment a sweep cannot settle', () => {
  it('does not stop the expiry of the others; expired once the database lets it', async () => {
    const ids = await livePayments(8);
    await backdate(ids, 'expires_at');
    await client.query('INSERT INTO test_poisoned VALUES ($1)', [ids[0]]);
    expect(await expireDuePayments(app.deps, { lanes: 1, batch: 25 })).toBe(7);
    const status = async (id: string) => (await app.deps.prisma.payment.findUniqueOrThrow({ where: { id } })).status;
    expect(await status(ids[0]!)).toBe('pending');
    for (const id of ids.slice(1)) expect(await status(id)).toBe('expired');
    // Every tick tries it again, and the others stay done.
    expect(await expireDuePayments(app.deps, { lanes: 1, batch: 25 })).toBe(0);
    await client.query('DELETE FROM test_poisoned');
    expect(await expireDuePayments(app.deps, { lanes: 1, batch: 25 })).toBe(1);
    expect(await status(ids[0]!)).toBe('expired');
  });

  it('hands the database being away back to the ticker (which backs off) instead of going one by one', async () => {
    const [id] = await livePayments(1);
    await backdate([id!], 'expires_at');
    let ran = 0;
    const lost = new Error('Connection terminated unexpectedly');
    await expect(oneByOne(app.deps, 'expiry', 10, lost, async () => ++ran > 0)).rejects.toBe(lost);
    // PgBouncer while its server is away (seen in `npm run bench -- failover`): SQLSTATE 08P01.
    const bouncer = new Prisma.PrismaClientKnownRequestError('Database error. Code: `08P01`. Message: `server login has been failing, try again later (server_login_retry)`', {
      code: 'P2039',
      clientVersion: Prisma.prismaVersion.client,
      meta: { driverAdapterError: { cause: { originalCode: '08P01', kind: 'postgres' } } },
    });
    await expect(oneByOne(app.deps, 'expiry', 10, bouncer, async () => ++ran > 0)).rejects.toBe(bouncer);
    expect(ran).toBe(0);
    // A refusal of one row is the other case: the due payment is tried on its own.
    expect(await oneByOne(app.deps, 'expiry', 10, new Error('refused'), async () => ++ran > 0)).toEqual({ tried: 1, done: 1, failed: 0 });
    expect(await expireDuePayments(app.deps)).toBe(1);
  });

  it('does not stop the others’ fees coming back at the end of their late windows', async () => {
    const ids = await livePayments(6);
    await backdate(ids, 'expires_at');
    expect(await expireDuePayments(app.deps)).toBe(6);
    await backdate(ids, 'late_until');
    await client.query('INSERT INTO test_poisoned VALUES ($1)', [ids[0]]);
    expect(await endOverdueLateWindows(app.deps, { batch: 50 })).toBe(5);
    const fee = async (id: string) => (await app.deps.prisma.payment.findUniqueOrThrow({ where: { id } })).feeState;
    expect(await fee(ids[0]!)).toBe('reserved');
    for (const id of ids.slice(1)) expect(await fee(id)).toBe('released');
    await client.query('DELETE FROM test_poisoned');
    expect(await endOverdueLateWindows(app.deps)).toBe(1);
    expect(await fee(ids[0]!)).toBe('released');
  });
});
