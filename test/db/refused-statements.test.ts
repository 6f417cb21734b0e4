import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, IDLE_CLOSE_MS, WARM_CONNECTIONS } from '../../src/db/pool.js';
import { createPrisma, type PrismaClient } from '../../src/db/prisma.js';
import { inTransaction } from '../../src/db/statement.js';
import { createPaymentRest, gaugeValue, makeProject, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';
import { startSplitProxy } from '../support/split-proxy.js';

// A statement the database refuses (a unique violation, a RAISE of the create function: no card,
// no credit) leaves its connection as clean as one that succeeded. pg-pool's own `pool.query`
// discarded the connection on any error, so each refusal cost a new server process (a fork,
// authentication, the create function compiled again): the create hot path meets the unique index
// over live holds by design, and a caller sending refused creates made the server start a process
// per request. A connection that failed (lost, or its session ended) is still discarded.

describe('a refused statement keeps its connection', () => {
  let app: TestApp;
  let admin: pg.Client;
  let database: string;
  let pool: pg.Pool;
  let prisma: PrismaClient;

  beforeAll(async () => {
    app = await startTestApp();
    database = new URL(app.databaseUrl).pathname.slice(1);
    admin = new pg.Client({ connectionString: app.databaseUrl });
    await admin.connect();
    await admin.query('CREATE TABLE refused_probe (id int PRIMARY KEY)');
    await admin.query('INSERT INTO refused_probe VALUES (1)');
    // One connection: a statement that cost it shows as another backend pid.
    pool = createPool(app.databaseUrl, 1);
    prisma = createPrisma(pool);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await pool?.end();
    await admin?.end();
    await app?.stop();
  });

  const backendPid = async () => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  /** Server processes started for this file's database since the server started (PostgreSQL 14+). */
  const sessions = async () =>
    Number((await admin.query<{ n: string }>('SELECT sessions::text AS n FROM pg_stat_database WHERE datname = $1', [database])).rows[0]!.n);

  it('on the pool: a unique violation, a division by zero and a RAISE with a custom SQLSTATE leave the one connection in use', async () => {
    const pid = await backendPid();
    const refusals: [string, string][] = [
      ['INSERT INTO refused_probe VALUES (1)', '23505'],
      ['SELECT 1 / 0', '22012'],
      [`DO $$ BEGIN RAISE EXCEPTION 'no card available' USING ERRCODE = 'GW503'; END $$`, 'GW503'],
    ];
    for (let round = 0; round < 5; round++) {
      for (const [sql, code] of refusals) await expect(pool.query(sql)).rejects.toMatchObject({ code });
    }
    expect(await backendPid()).toBe(pid);
    expect(pool.totalCount).toBe(1);
  });

  it('through Prisma on the pool: a refused create leaves the connection in use', async () => {
    const pid = await backendPid();
    for (let i = 0; i < 5; i++) {
      await expect(prisma.$executeRawUnsafe('INSERT INTO refused_probe VALUES (1)')).rejects.toThrow();
    }
    expect(await backendPid()).toBe(pid);
  });

  it('a transaction rolled back for a refusal gives its connection back too', async () => {
    const pid = await backendPid();
    for (let i = 0; i < 5; i++) {
      await expect(inTransaction(pool, (client) => client.query('INSERT INTO refused_probe VALUES (1)'))).rejects.toMatchObject({ code: '23505' });
    }
    expect(await backendPid()).toBe(pid);
  });

  it('a connection left inside a transaction, open or aborted, is rolled back before it is handed out again', async () => {
    // A BEGIN sent as a plain statement: the connection would go back with the transaction open
    // (now() would stay the BEGIN's time, and the next caller's writes would wait for a COMMIT).
    await pool.query('BEGIN');
    await new Promise((r) => setTimeout(r, 20));
    expect((await pool.query<{ open: boolean }>('SELECT now() = statement_timestamp() AS open')).rows[0]!.open).toBe(true);
    // Refused inside a transaction a multi-statement text opened: the next caller would get
    // "current transaction is aborted" on everything it sent.
    await expect(pool.query('BEGIN; SELECT 1 / 0')).rejects.toMatchObject({ code: '22012' });
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    expect(pool.totalCount).toBe(1);
  });

  it('a transaction a failed text opened is rolled back even when the ReadyForQuery after the error comes in a later packet', async () => {
    // pg rejects the statement at the ErrorResponse; the transaction status comes with the
    // ReadyForQuery after it. Read too early it still said 'I' and the connection went back
    // aborted (CI's pass through PgBouncer, which may forward the two apart).
    const target = new URL(app.databaseUrl);
    const proxy = await startSplitProxy({ host: target.hostname, port: Number(target.port) });
    const split = createPool(proxy.url(app.databaseUrl), 1);
    try {
      for (let round = 0; round < 3; round++) {
        await expect(split.query('BEGIN; SELECT 1 / 0')).rejects.toMatchObject({ code: '22012' });
        expect((await split.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
        await expect(inTransaction(split, (client) => client.query('SELECT 1 / 0'))).rejects.toMatchObject({ code: '22012' });
        expect((await split.query<{ open: boolean }>('SELECT now() = statement_timestamp() AS open')).rows[0]!.open).toBe(true);
      }
      expect(split.totalCount).toBe(1);
    } finally {
      await split.end();
      await proxy.close();
    }
  });

  it('a connection whose session the server ended is replaced, and the statement runs on the new one', async () => {
    const pid = await backendPid();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    const next = await backendPid();
    expect(next).not.toBe(pid);
    expect(pool.totalCount).toBe(1);
  });

  it('a pool keeps WARM_CONNECTIONS connections however long they sit idle, and closes the rest', async () => {
    expect(WARM_CONNECTIONS).toBe(2);
    expect(IDLE_CLOSE_MS).toBeGreaterThanOrEqual(60_000);
    const defaults = createPool(app.databaseUrl, 1);
    expect(defaults.options.idleTimeoutMillis).toBe(IDLE_CLOSE_MS);
    await defaults.end();
    const quick = createPool(app.databaseUrl, 5, { idleTimeoutMillis: 150 });
    try {
      // Five at once: five connections.
      const pids = new Set(
        await Promise.all(Array.from({ length: 5 }, async () => (await quick.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.05)')).rows[0]!.pid)),
      );
      expect(pids.size).toBe(5);
      await new Promise((r) => setTimeout(r, 600));
      expect(quick.totalCount).toBe(WARM_CONNECTIONS);
      // The next statement runs on one of the connections kept, no new server process.
      const next = (await quick.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      expect(pids.has(next)).toBe(true);
    } finally {
      await quick.end();
    }
  });

  it('the service: 40 creates refused inside the create function (no card, no credit) start no server process', async () => {
    const noCard = await makeProject(app);
    const noCredit = await makeShop(app, { sandbox: false, credit: 0 });
    // Warm: the service's pool has what one request at a time needs.
    for (let i = 0; i < 3; i++) {
      expect((await createPaymentRest(app, noCard.apiKey, { amount: 100_000 })).status).toBe(503);
      expect((await createPaymentRest(app, noCredit.apiKey, { amount: 100_000 })).status).toBe(402);
    }
    // ...and what a scrape needs: its gauges read the database two at a time, on the request pool
    // (an `all` process's jobs have a pool of their own, which no longer warms this one).
    await request(app.baseUrl, 'GET', '/metrics');
    const before = await sessions();
    const openedBefore = await gaugeValue(app.baseUrl, 'gateway_db_connections_opened_total');
    for (let i = 0; i < 20; i++) {
      const noCardAnswer = await createPaymentRest(app, noCard.apiKey, { amount: 100_000 });
      expect(noCardAnswer.status).toBe(503);
      expect(noCardAnswer.body.error.code).toBe('no_card_available');
      const noCreditAnswer = await createPaymentRest(app, noCredit.apiKey, { amount: 100_000 });
      expect(noCreditAnswer.status).toBe(402);
      expect(noCreditAnswer.body.error.code).toBe('merchant_credit_exhausted');
    }
    // Each refusal cost a process before (40 here); the queue's own pool may open one meanwhile.
    expect(await sessions()).toBeLessThanOrEqual(before + 2);
    // The service's own count of the connections it opened says the same (pg-boss's pool aside).
    expect(await gaugeValue(app.baseUrl, 'gateway_db_connections_opened_total')).toBe(openedBefore);
    const scrape = (await request(app.baseUrl, 'GET', '/metrics')).text;
    expect(scrape).toMatch(/^gateway_db_pool_connections\{state="idle"\} \d+$/m);
    expect(scrape).toMatch(/^gateway_db_pool_connections\{state="in_use"\} \d+$/m);
    expect(scrape).toMatch(/^gateway_db_pool_waiting \d+$/m);
  });
});
