import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src/db/pool.js';
import { createPrisma, type PrismaClient } from '../../src/db/prisma.js';
import { inTransaction } from '../../src/db/statement.js';
import { toAppError } from '../../src/error-translator.js';
import { createPaymentRest, gql, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

// A backend the server ends (pg_terminate_backend, a fast shutdown, the old primary of a failover)
// answers FATAL 57P01, and nothing of its open transaction committed. A pooled connection ended
// while idle may be handed out before its FATAL is read: the unit of work (an autocommit statement,
// a transaction from BEGIN) runs again on another connection instead of becoming a 500 (CI once
// saw one in test/db/replica.test.ts). A connection lost any other way may have committed, so it
// is not run again: the caller gets 503 unavailable with Retry-After (src/db/errors.ts), and a
// create sent again with its Idempotency-Key is made once.

describe('sessions the server ended', () => {
  let app: TestApp;
  let admin: pg.Client;
  let shop: Awaited<ReturnType<typeof makeShop>>;
  let database: string;
  /**
   * The process's kind of pool and Prisma, straight to PostgreSQL, for the retry rule itself:
   * through PgBouncer a backend's FATAL may reach the client only as PgBouncer's own "server conn
   * crashed?" (08P01), which is not run again (the burst below goes through the service's pool).
   */
  let pool: pg.Pool;
  let prisma: PrismaClient;

  beforeAll(async () => {
    // An API process: every round below ends every backend, and a worker's would only reconnect in
    // the background (its job loops, sweeps and LISTEN) while the requests under test run.
    app = await startTestApp({ role: 'api' });
    database = new URL(app.databaseUrl).pathname.slice(1);
    admin = new pg.Client({ connectionString: app.databaseUrl });
    await admin.connect();
    await admin.query('CREATE SEQUENCE ended_probe_seq; CREATE TABLE ended_probe (attempt int NOT NULL)');
    shop = await makeShop(app);
    pool = createPool(app.databaseUrl, 4);
    prisma = createPrisma(pool);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await pool?.end();
    await admin?.end();
    await app?.stop();
  });

  /** Ends every backend of this file's database but the admin's own; the service's pool keeps its idle clients until it reads their FATAL. */
  const terminateAll = () =>
    admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database]);
  it('an autocommit statement answered by FATAL 57P01 runs again on another connection', async () => {
    // Ends its own backend on its first run only (a sequence is not transactional).
    const res = await pool.query(`SELECT CASE WHEN nextval('ended_probe_seq') = 1 THEN pg_terminate_backend(pg_backend_pid()) END AS ended`);
    expect(res.rows).toEqual([{ ended: null }]); // the second run's answer
    expect((await admin.query('SELECT last_value::int AS n FROM ended_probe_seq')).rows[0].n).toBe(2);
  });

  it('a transaction ended before COMMIT runs again from BEGIN, and commits once (typed SQL and Prisma)', async () => {
    let runs = 0;
    await inTransaction(pool, async (client) => {
      runs++;
      await client.query('INSERT INTO ended_probe VALUES ($1)', [runs]);
      if (runs === 1) await client.query('SELECT pg_terminate_backend(pg_backend_pid())');
    });
    expect(runs).toBe(2);
    let prismaRuns = 0;
    await prisma.$transaction(async (tx) => {
      prismaRuns++;
      await tx.$executeRawUnsafe('INSERT INTO ended_probe VALUES ($1)', 10 + prismaRuns);
      if (prismaRuns === 1) await tx.$queryRawUnsafe('SELECT pg_terminate_backend(pg_backend_pid())::text');
    });
    expect(prismaRuns).toBe(2);
    expect((await admin.query('SELECT attempt FROM ended_probe ORDER BY attempt')).rows.map((r) => r.attempt)).toEqual([2, 12]);
  });

  it('a burst right after every backend is ended: never a 500, a 503 says when to retry, and a create retried with its key is made once', async () => {
    let refusals = 0;
    /** What a merchant's client does: a 503 carries Retry-After and is sent again as it was (the same Idempotency-Key). */
    const untilAnswered = async <T extends { status: number; headers: Headers; body: any }>(send: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        const res = await send();
        expect(res.status, JSON.stringify(res.body)).not.toBe(500);
        if (res.status !== 503 || attempt === 5) return res;
        expect(res.body.error.code).toBe('unavailable');
        expect(res.headers.get('retry-after')).toBe('1');
        refusals++;
      }
    };
    const create = (amount: number, key: string) => untilAnswered(() => createPaymentRest(app, shop.apiKey, { amount }, { 'Idempotency-Key': key }));
    const keys: string[] = [];
    for (let round = 0; round < 8; round++) {
      const held = await createPaymentRest(app, shop.apiKey, { amount: 300_000 + round * 10 });
      expect(held.status).toBe(201);
      // Several pooled connections in use, then idle.
      await Promise.all(Array.from({ length: 6 }, () => request(app.baseUrl, 'GET', '/v1/payments?pageSize=1', { token: shop.apiKey })));
      await terminateAll();
      const batch = [0, 1, 2].map((k) => `burst-${round}-${k}`);
      keys.push(...batch);
      const [creates, deposit, read] = await Promise.all([
        Promise.all(batch.map((key, k) => create(200_000 + k * 10_000 + round * 10, key))),
        untilAnswered(() => request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: held.body.id } })),
        gql(app.baseUrl, `query($id: ID!) { payment(id: $id) { id } }`, { id: held.body.id }, shop.apiKey),
      ]);
      for (const r of creates) expect(r.status, JSON.stringify(r.body)).toBe(201);
      // A deposit refused with 503 may have been recorded before its connection went: sent again, it finds the payment confirmed.
      expect([200, 409], JSON.stringify(deposit.body)).toContain(deposit.status);
      expect((await request(app.baseUrl, 'GET', `/v1/payments/${held.body.id}`, { token: shop.apiKey })).body.status).toBe('confirmed');
      expect(read.errors?.map((e) => e.extensions.code) ?? []).not.toContain('internal_error');
    }
    // One payment per key, whatever was refused and sent again on the way.
    const rows = await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE amount_requested BETWEEN 200000 AND 229999`);
    expect(rows.rows[0]!.n).toBe(keys.length);
    // Straight to PostgreSQL the ended sessions are run again and nothing is refused (here); through
    // PgBouncer a query it gave a dead server connection is "server conn crashed?" (08P01), which
    // may have committed, so it is refused: counted, not asserted.
    console.info(`ended-sessions burst: ${refusals} answers were 503 and sent again`);
  });

  it('other ended or lost connections are 503 unavailable with Retry-After, never internal_error', async () => {
    const raise = (sqlstate: string) => app.deps.prisma.$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '${sqlstate}'; END $$`);
    for (const sqlstate of ['57P01', '57P02', '57P03']) {
      const err = await raise(sqlstate).then(() => undefined, (e: unknown) => toAppError(e));
      expect(err?.code, sqlstate).toBe('unavailable');
      expect(err?.status).toBe(503);
      expect(err?.details.retryAfterSeconds).toBe(1);
    }
    const lost = [
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect', errno: -111 }),
    ];
    for (const e of lost) expect(toAppError(e).code, e.message).toBe('unavailable');
    // A bug is still a bug.
    expect(toAppError(new Error('Connection terminated unexpectedly, or so the bug says')).code).toBe('internal_error');
  });
});
