import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { LISTENER_NAME } from '../../src/events/payment-notifier.js';
import { JOB_LISTENER_NAME } from '../../src/queue/job-queue.js';
import { createPool } from '../../src/db/pool.js';
import { statement, type Queryable } from '../../src/db/statement.js';
import { createLogger } from '../../src/logger.js';
import { startRuntime, type Role } from '../../src/runtime.js';
import { createPaymentRest, createTestDatabase, gqlOk, makeShop, request, TEST_SECRET_KEY, testEnv, type HttpResult, type TestApp } from '../support/harness.js';
import { hasPgBouncer, PGBOUNCER, startPgBouncer, type PgBouncer } from '../support/pgbouncer.js';
import { spawnTs, waitFor } from '../support/process.js';
import { Receiver } from '../support/receiver.js';
import { subscribeSse } from '../support/sse.js';

// Issue 22: DATABASE_URL may be PgBouncer in transaction mode, where a client holds a server
// connection for one transaction only. Nothing may leave session state behind on it: no named
// prepared statement (the next client on that connection would meet it, "already exists", and a
// client on another connection would miss it, "does not exist"), no LISTEN, no session lock.
// DATABASE_DIRECT_URL carries what needs a session: migrations and their lock, LISTEN (payment
// fan-out, credential cache) and pg-boss's wake-ups. Here the service runs against a real PgBouncer
// 1.18 in transaction mode with one and two server connections and many clients at once.

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe('statements on the process pool', () => {
  it('statement() sends its SQL unnamed; its name only labels it in the statement log', async () => {
    const sent: pg.QueryConfig[] = [];
    const db = { query: async (config: pg.QueryConfig) => (sent.push(config), { rows: [] }) } as unknown as Queryable;
    await statement<[string], never>('auth-merchant-key', 'SELECT $1::text')(db, 'x');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ text: 'SELECT $1::text', values: ['x'] });
    expect(sent[0]!.name).toBeUndefined();
  });

  it('the pool refuses a named prepared statement before it reaches the server', async () => {
    const pool = createPool(await createTestDatabase(), 1);
    try {
      await expect(pool.query({ name: 'named-probe', text: 'SELECT 1' })).rejects.toThrow(/named prepared statement "named-probe" refused/);
      expect((await pool.query('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('DATABASE_DIRECT_URL defaults to DATABASE_URL and needs it', () => {
    const url = 'postgresql://u:p@db.example:6432/gw';
    const base = { DATABASE_URL: url, SECRET_KEY: TEST_SECRET_KEY };
    expect(loadConfig(base).databaseDirectUrl).toBe(url);
    expect(loadConfig({ ...base, DATABASE_DIRECT_URL: 'postgresql://u:p@db.example:5432/gw' }).databaseDirectUrl).toBe('postgresql://u:p@db.example:5432/gw');
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'postgresql://u:p@db.example:5432/gw' })).toThrow(/DATABASE_DIRECT_URL/);
    expect(loadConfig({}).databaseDirectUrl).toBeUndefined();
  });
});

describe.skipIf(!hasPgBouncer())(`the service through PgBouncer in transaction mode (${PGBOUNCER})`, () => {
  let direct: string;
  let bouncer: PgBouncer;
  /** The test database through the pooler: `one` has one server connection, `two` two. */
  const pooled = (alias: 'one' | 'two') => {
    const url = new URL(bouncer.url(direct));
    url.pathname = `/${alias}`;
    return url.toString();
  };
  const apps: TestApp[] = [];

  beforeAll(async () => {
    direct = await createTestDatabase();
    const dbname = new URL(direct).pathname.slice(1);
    bouncer = await startPgBouncer({ serverUrl: inject('pgServerUrl'), poolSize: 2, aliases: { one: { dbname, poolSize: 1 }, two: { dbname, poolSize: 2 } } });
  });
  afterAll(async () => {
    for (const app of apps) await app.stop();
    await bouncer?.stop();
  });

  /** The real service (HTTP, GraphQL, and workers unless `api`) with DATABASE_URL through the pooler. */
  async function startPooled(alias: 'one' | 'two', role: Role): Promise<TestApp> {
    const databaseUrl = pooled(alias);
    const config = loadConfig({ ...testEnv(direct), DATABASE_URL: databaseUrl, DATABASE_DIRECT_URL: direct });
    const runtime = await startRuntime({ config, databaseUrl, directUrl: direct, secretKey: TEST_SECRET_KEY, role, log: createLogger(config.logLevel), port: 0, host: '127.0.0.1' });
    const app = { baseUrl: `http://127.0.0.1:${runtime.http!.port}`, databaseUrl: direct, runtime, deps: runtime.deps, stop: runtime.stop };
    apps.push(app);
    return app;
  }

  /** Prepared statements on the server connection a client of `url` gets (with one server connection: the only one). */
  const preparedOn = async (url: string) => (await query<{ name: string }>(url, 'SELECT name FROM pg_prepared_statements')).map((r) => r.name);

  const ok = (res: HttpResult, ...statuses: number[]) => {
    if (!statuses.includes(res.status)) throw new Error(`unexpected ${res.status}: ${res.text.slice(0, 300)}`);
    return res;
  };

  /**
   * Every per-request hot path at once, `n` of each, from many pool clients: credentials (merchant
   * key, project key, device token), rate-limit grants, creates (plain, idempotent and replayed,
   * GraphQL, link), get, list, verify, the checkout view, a payer's report, device heartbeats.
   */
  async function hotPaths(app: TestApp, n: number, tag: string): Promise<void> {
    const shop = await makeShop(app, { sandbox: false, credit: 100_000_000, card: { dailyCountCap: 1000 } });
    const slug = `pool-${tag}-${Math.random().toString(36).slice(2, 8)}`;
    await gqlOk(app.baseUrl, `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { slug } }`, { input: { projectId: shop.projectId, slug, title: 'Tea', amount: 70_000 } }, shop.merchantKey);
    const amount = (i: number, base: number) => base + i * 1_000;
    const created = await Promise.all([
      ...Array.from({ length: n }, (_, i) => createPaymentRest(app, shop.apiKey, { amount: amount(i, 100_000) })),
      ...Array.from({ length: n }, (_, i) => createPaymentRest(app, shop.apiKey, { amount: amount(i, 300_000) }, { 'idempotency-key': `${tag}-${i}` })),
      ...Array.from({ length: n }, (_, i) =>
        request(app.baseUrl, 'POST', '/graphql', {
          token: shop.apiKey,
          body: { query: 'mutation($i: CreatePaymentInput!) { createPayment(input: $i) { id token } }', variables: { i: { amount: amount(i, 500_000), callbackUrl: 'https://shop.example.com/r' } } },
        }),
      ),
    ]);
    const payments = created.map((res) => {
      ok(res, 200, 201);
      if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
      return (res.body.data?.createPayment ?? res.body) as { id: string; token: string };
    });
    await Promise.all([
      // Replays of the idempotent creates: the first answer, byte for byte.
      ...Array.from({ length: n }, async (_, i) => {
        const again = ok(await createPaymentRest(app, shop.apiKey, { amount: amount(i, 300_000) }, { 'idempotency-key': `${tag}-${i}` }), 201);
        expect(again.text).toBe(created[n + i]!.text);
      }),
      ...payments.map(async (p, i) => {
        ok(await request(app.baseUrl, 'GET', `/v1/payments/${p.id}`, { token: shop.apiKey }), 200);
        ok(await request(app.baseUrl, 'GET', `/v1/checkout/${p.token}`), 200);
        ok(await request(app.baseUrl, 'POST', `/v1/payments/${p.id}/verify`, { token: shop.apiKey }), 200);
        if (i % 3 === 0) ok(await request(app.baseUrl, 'POST', `/v1/checkout/${p.token}/report`, { body: {} }), 200);
      }),
      ...Array.from({ length: n }, async () => ok(await request(app.baseUrl, 'GET', '/v1/payments?pageSize=5&status=pending', { token: shop.apiKey }), 200)),
      ...Array.from({ length: n }, async () => ok(await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken }), 204)),
      ...Array.from({ length: n }, async () => gqlOk(app.baseUrl, '{ viewer { merchant { devices { online } } } }', {}, shop.merchantKey)),
      ...Array.from({ length: 2 }, async () => ok(await request(app.baseUrl, 'POST', `/v1/links/${slug}/payments`, { body: {} }), 201)),
    ]);
  }

  it('a process just started sends each queue’s first job inside a transaction on that transaction’s connection alone', async () => {
    // pg-boss looks a queue up (its table) on its own pool the first time a process sends to it;
    // creating the queues at start empties that cache. Inside a transaction that holds the only
    // server connection, that lookup would wait for a second one: with as many transactions at
    // once as the pooler has server connections, none could go on. JobQueue.start fills the cache.
    const app = await startPooled('one', 'api');
    for (const name of ['payment-sweep', 'deliver-webhook', 'process-bank-message'] as const) {
      const sent = app.deps.prisma.$transaction(async (tx) => {
        await app.deps.jobs.send(name, { paymentId: randomUUID() } as never, { tx });
        throw new Error('rolled back on purpose');
      });
      await expect(sent).rejects.toThrow('rolled back on purpose');
    }
  }, 30_000);

  it('the check below sees a named statement left on the only server connection', async () => {
    const client = new pg.Client({ connectionString: pooled('one') });
    await client.connect();
    try {
      await client.query({ name: 'left-behind', text: 'SELECT 1' });
      expect(await preparedOn(pooled('one'))).toEqual(['left-behind']);
      await client.query('DEALLOCATE "left-behind"');
    } finally {
      await client.end();
    }
    expect(await preparedOn(pooled('one'))).toEqual([]);
  });

  it('one server connection, many clients: every hot path answers, and no prepared statement is left on it', async () => {
    const app = await startPooled('one', 'api');
    await hotPaths(app, 12, 'one');
    expect(await preparedOn(pooled('one'))).toEqual([]);
  });

  it('two server connections: hot paths, subscriptions (LISTEN on the direct URL), jobs and webhooks (pg-boss)', async () => {
    const app = await startPooled('two', 'all');
    expect(app.deps.jobs.wakesOnNotify).toBe(true);
    // Both LISTEN connections are the server's own clients, and neither is the pooler's.
    const dbname = new URL(direct).pathname.slice(1);
    const onServer = await query<{ name: string }>(direct, 'SELECT application_name AS name FROM pg_stat_activity WHERE datname = $1', [dbname]);
    expect(onServer.map((r) => r.name)).toEqual(expect.arrayContaining([LISTENER_NAME, JOB_LISTENER_NAME]));
    const viaPooler = await query<{ application_name: string }>(new URL('/pgbouncer', bouncer.url(direct)).toString(), 'SHOW CLIENTS');
    expect(viaPooler.length).toBeGreaterThan(0);
    expect(viaPooler.map((c) => c.application_name)).not.toEqual(expect.arrayContaining([LISTENER_NAME]));
    expect(viaPooler.map((c) => c.application_name)).not.toEqual(expect.arrayContaining([JOB_LISTENER_NAME]));
    const receiver = await new Receiver().start();
    try {
      const shop = await makeShop(app);
      await gqlOk(app.baseUrl, `mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }`, { p: shop.projectId, u: `${receiver.url}/hooks` }, shop.merchantKey);
      const p = ok(await createPaymentRest(app, shop.apiKey, { amount: 40_000 }), 201).body as { id: string };
      const updates = subscribeSse<{ data: { paymentUpdated: { status: string } } }>(app.baseUrl, 'subscription($id: ID!) { paymentUpdated(id: $id) { id status } }', { id: p.id }, `Bearer ${shop.apiKey}`);
      try {
        await updates.waitFor(1);
        const deposit = async () => ok(await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: p.id } }), 200);
        await Promise.all([hotPaths(app, 15, 'two'), deposit()]);
        await updates.waitUntil(() => updates.values.some((v) => v.data.paymentUpdated.status === 'confirmed'), 'the confirmation, heard over LISTEN');
      } finally {
        updates.stop();
      }
      const [hit] = await receiver.waitFor(1, 20_000);
      expect(hit!.json).toMatchObject({ event: 'payment.confirmed', paymentId: p.id });
    } finally {
      await receiver.stop();
    }
    expect(app.deps.jobs.wakesOnNotify).toBe(true);
  });

  it('npm start’s entry point migrates over the direct URL, leaves no lock, and serves through the pooler', async () => {
    const env = { ...testEnv(direct), DATABASE_URL: pooled('two'), DATABASE_DIRECT_URL: direct };
    const proc = spawnTs('src/main.ts', ['--role', 'all'], env);
    try {
      await waitFor(() => /Postgres: /.test(proc.stdout()) || proc.child.exitCode !== null, 60_000, 'the service');
      const port = /listening on port (\d+)/.exec(proc.stdout())?.[1];
      if (!port) throw new Error(`did not start: ${proc.stderr()}`);
      expect(proc.stdout()).toContain('DATABASE_URL (sessions: DATABASE_DIRECT_URL)');
      expect((await request(`http://127.0.0.1:${port}`, 'GET', '/readyz')).status).toBe(200);
      const locks = await query<{ n: number }>(direct, `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE d.datname = current_database() AND l.locktype = 'advisory' AND l.objid = 727310001`);
      expect(locks[0]!.n).toBe(0);
    } finally {
      proc.child.kill('SIGTERM');
      expect(await proc.exit).toBe(0);
    }
  });
});
