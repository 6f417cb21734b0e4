import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { READ_POOL_NAME } from '../../src/db/read-pool.js';
import { LISTENER_NAME } from '../../src/events/payment-notifier.js';
import { readCsvObjects } from '../exports/read-csv.js';
import { createPaymentRest, gqlOk, makeShop, request, startTestApp, TEST_SECRET_KEY, type TestApp } from '../support/harness.js';
import { caughtUp, startReplicaSet, type ReplicaSet } from '../support/replica.js';
import { subscribeSse } from '../support/sse.js';

// Issue 22 item 2: DATABASE_READ_URL, a streaming replica, serves exports, paymentStats and the
// dashboard's lists (GraphQL payments, bankMessages, auditEvents); money decisions and single reads
// stay on the primary. A real primary and a real hot standby (test/support/replica.ts). The standby
// logs every statement with its application_name, so what reached it is read from its own log; its
// replay is paused to show which reads lag.

const STATS = `query($projectId: ID) { paymentStats(projectId: $projectId, groupBy: MONTH) { period confirmedCount pendingCount } }`;
const LISTS = `query {
  payments(first: 50) { totalCount edges { node { id status } } }
  bankMessages(first: 50) { edges { node { id } } }
  auditEvents(first: 50) { edges { node { id action } } }
}`;

describe('DATABASE_READ_URL: a streaming replica', () => {
  let set: ReplicaSet;
  /** Replica with the default 30 s lag bound. */
  let app: TestApp;
  /** The same replica, but reads leave it beyond 1 s of lag. */
  let strict: TestApp;
  let shop: Awaited<ReturnType<typeof makeShop>>;

  beforeAll(async () => {
    set = await startReplicaSet({
      synchronous: false,
      database: 'gateway',
      // Every statement the standby runs, with the client's application_name first.
      standbyFlags: ['-c', 'log_statement=all', '-c', 'log_line_prefix=@%a| '],
    });
    const primary = set.primary.url('gateway');
    await migrate(primary);
    const env = { DATABASE_URL: primary, DATABASE_DIRECT_URL: primary, DATABASE_READ_URL: set.standby.url('gateway') };
    app = await startTestApp({ databaseUrl: primary, env });
    strict = await startTestApp({ databaseUrl: primary, env: { ...env, DATABASE_READ_MAX_LAG_SECONDS: '1' }, role: 'api' });
    shop = await makeShop(app);
  }, 120_000);

  afterAll(async () => {
    await strict?.stop();
    await app?.stop();
    await set?.stop();
  });

  /**
   * Statements the read pool ran on the standby, in the standby's log from `since` on: every entry
   * starts with `@<application_name>| `, a statement's further lines follow it unprefixed.
   */
  const readPoolStatements = (since: number) =>
    set.standby
      .log()
      .slice(since)
      .split(/\n(?=@)/)
      .filter((entry) => entry.startsWith(`@${READ_POOL_NAME}| `) && /LOG: {2}(statement|execute)/.test(entry));

  const exportedIds = async (a: TestApp) => {
    const res = await request(a.baseUrl, 'GET', '/v1/exports/payments', { token: shop.apiKey });
    expect(res.status).toBe(200);
    return readCsvObjects(res.text.replace(/^\uFEFF/, '')).map((r) => r.id);
  };
  const pendingInStats = async (a: TestApp) => {
    const data = await gqlOk(a.baseUrl, STATS, {}, shop.apiKey);
    return (data.paymentStats as { pendingCount: number }[]).reduce((n, p) => n + p.pendingCount, 0);
  };
  const listedIds = async (a: TestApp) => ((await gqlOk(a.baseUrl, LISTS, {}, shop.merchantKey)).payments.edges as { node: { id: string } }[]).map((e) => e.node.id);
  const metrics = async (a: TestApp) => (await request(a.baseUrl, 'GET', '/metrics')).text;
  const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

  it('DATABASE_READ_URL needs DATABASE_URL; the lag bound defaults to 30 s', () => {
    const url = 'postgresql://u:p@db.example:5432/gw';
    expect(() => loadConfig({ DATABASE_READ_URL: url })).toThrow(/DATABASE_READ_URL/);
    const config = loadConfig({ DATABASE_URL: url, DATABASE_READ_URL: 'postgresql://u:p@replica.example:5432/gw', SECRET_KEY: TEST_SECRET_KEY });
    expect(config.databaseReadUrl).toBe('postgresql://u:p@replica.example:5432/gw');
    expect(config.databaseReadMaxLagSeconds).toBe(30);
    expect(loadConfig({}).databaseReadUrl).toBeUndefined();
  });

  it('exports, paymentStats and the dashboard lists are read on the replica', async () => {
    const created = await createPaymentRest(app, shop.apiKey, { amount: 120_000 });
    expect(created.status).toBe(201);
    await caughtUp(set);
    const since = set.standby.log().length;

    expect(await exportedIds(app)).toContain(created.body.id);
    expect(await pendingInStats(app)).toBeGreaterThanOrEqual(1);
    const lists = await gqlOk(app.baseUrl, LISTS, {}, shop.merchantKey);
    expect(lists.payments.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(created.body.id);
    expect(lists.auditEvents.edges.length).toBeGreaterThan(0);

    const ran = readPoolStatements(since).join('\n');
    expect(ran).toMatch(/FROM payments p JOIN cards c/); // the payments export
    expect(ran).toMatch(/WITH days AS/); // paymentStats
    expect(ran).toMatch(/FROM "public"\."payments"/); // the payments connection (Prisma)
    expect(ran).toMatch(/FROM "public"\."bank_messages"/);
    expect(ran).toMatch(/FROM "public"\."audit_events"/);
  });

  it('money paths, single reads and REST lists never touch the replica', async () => {
    const since = set.standby.log().length;
    const created = await createPaymentRest(app, shop.apiKey, { amount: 130_000 });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const viaGraphql = await gqlOk(
      app.baseUrl,
      `mutation($i: CreatePaymentInput!) { createPayment(input: $i) { id status } }`,
      { i: { amount: 140_000, callbackUrl: 'https://shop.example.com/r' } },
      shop.apiKey,
    );
    expect(viaGraphql.createPayment.status).toBe('pending');
    expect((await request(app.baseUrl, 'GET', `/v1/payments/${id}`, { token: shop.apiKey })).status).toBe(200);
    expect((await request(app.baseUrl, 'GET', `/v1/checkout/${created.body.token}`)).status).toBe(200);
    expect((await request(app.baseUrl, 'GET', '/v1/payments?pageSize=5', { token: shop.apiKey })).status).toBe(200);
    expect((await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: id } })).status).toBe(200);
    expect((await request(app.baseUrl, 'POST', `/v1/payments/${id}/verify`, { token: shop.apiKey })).body.verified).toBe(true);
    expect((await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { status } }`, { id }, shop.apiKey)).payment.status).toBe('confirmed');
    // The worker in `app` ran the deposit's webhook job and the expiry sweep meanwhile: workers have no replica.
    await new Promise((r) => setTimeout(r, 300));
    expect(readPoolStatements(since)).toEqual([]);
  });

  it('with replay paused, exports, stats and lists lag while payment(id), verify and checkout do not; the lag is in /metrics', async () => {
    await caughtUp(set);
    const before = { exported: await exportedIds(app), pending: await pendingInStats(app), listed: await listedIds(app) };
    expect(gauge(await metrics(app), 'gateway_replica_lag_seconds')).toBe(0);

    await set.standby.query('SELECT pg_wal_replay_pause()');
    try {
      const created = await createPaymentRest(app, shop.apiKey, { amount: 150_000 });
      expect(created.status).toBe(201);
      const paused = await createPaymentRest(app, shop.apiKey, { amount: 160_000 });
      const id = created.body.id as string;
      // The primary has it, and so has everything that reads the primary.
      expect((await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: id } })).body.payment.status).toBe('confirmed');
      expect((await gqlOk(app.baseUrl, `query($id: ID!) { payment(id: $id) { status } }`, { id }, shop.apiKey)).payment.status).toBe('confirmed');
      expect((await request(app.baseUrl, 'POST', `/v1/payments/${id}/verify`, { token: shop.apiKey })).body.verified).toBe(true);
      expect((await request(app.baseUrl, 'GET', `/v1/checkout/${paused.body.token}`)).body.status).toBe('pending');

      // The replica has received the WAL but not replayed it: the reports lag, and say by how much.
      await expect.poll(async () => gauge(await metrics(app), 'gateway_replica_lag_seconds'), { timeout: 5_000, interval: 100 }).toBeGreaterThan(0);
      const m = await metrics(app);
      expect(gauge(m, 'gateway_replica_up')).toBe(1);
      expect(gauge(m, 'gateway_replica_in_use')).toBe(1);
      expect(await exportedIds(app)).toEqual(before.exported);
      expect(await exportedIds(app)).not.toContain(id);
      expect(await pendingInStats(app)).toBe(before.pending);
      expect(await listedIds(app)).toEqual(before.listed);

      // Beyond DATABASE_READ_MAX_LAG_SECONDS (1 s for `strict`) the same reads go to the primary.
      await expect.poll(async () => gauge(await metrics(strict), 'gateway_replica_lag_seconds'), { timeout: 10_000, interval: 250 }).toBeGreaterThan(1);
      await expect.poll(async () => gauge(await metrics(strict), 'gateway_replica_in_use'), { timeout: 5_000, interval: 250 }).toBe(0);
      expect(await exportedIds(strict)).toContain(id);
      expect(await listedIds(strict)).toContain(paused.body.id);
      expect(await pendingInStats(strict)).toBe(before.pending + 1);
    } finally {
      await set.standby.query('SELECT pg_wal_replay_resume()');
    }
    await caughtUp(set);
    await expect.poll(async () => gauge(await metrics(app), 'gateway_replica_lag_seconds'), { timeout: 5_000, interval: 200 }).toBe(0);
    expect(await exportedIds(app)).toHaveLength(before.exported.length + 2);
  });

  // What a dying primary does to a process (bench/failover.ts rehearses the whole failover): every
  // server connection ends, some between two statements of a client that is checked out, and the
  // LISTEN connection with them. The process must survive and reconnect by itself.
  it('connections ended by the server: no process dies, the pools and the LISTEN fan-out reconnect', async () => {
    const sessions = (name: string) =>
      set.primary.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'gateway' AND application_name = $1`, [name]);
    await expect.poll(async () => (await sessions(LISTENER_NAME))[0]!.n, { timeout: 5_000 }).toBe(2);
    const held = await createPaymentRest(app, shop.apiKey, { amount: 180_000 });
    const sub = subscribeSse<{ data?: { checkoutStatus?: { status: string } } }>(app.baseUrl, 'subscription($t: String!) { checkoutStatus(token: $t) { status } }', { t: held.body.token });
    await sub.waitFor(1);
    // A pool client checked out and idle inside its transaction, as a request holds one between statements.
    const checkedOut = await app.deps.pool.connect();
    await checkedOut.query('BEGIN');
    // A client its owner stopped listening to (pg-boss's LISTEN client drops its listeners before ending a failed connection).
    const abandoned = new pg.Client({ connectionString: set.primary.url('gateway'), application_name: 'abandoned-probe' });
    await abandoned.connect();
    abandoned.removeAllListeners('error');

    await set.primary.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'gateway' AND pid <> pg_backend_pid()`);
    await expect(checkedOut.query('SELECT 1')).rejects.toThrow();
    checkedOut.release(true);

    // Still alive (an 'error' nobody listens to would have ended this worker), and serving.
    expect((await createPaymentRest(app, shop.apiKey, { amount: 190_000 })).status).toBe(201);
    // The notifier is back, on one connection per process, and the subscription sees a change made after.
    await expect.poll(async () => (await sessions(LISTENER_NAME))[0]!.n, { timeout: 10_000, interval: 200 }).toBe(2);
    expect((await request(app.baseUrl, 'POST', '/v1/sandbox/deposits', { token: shop.apiKey, body: { paymentId: held.body.id } })).status).toBe(200);
    await sub.waitUntil(() => sub.values.some((v) => v.data?.checkoutStatus?.status === 'confirmed'), 'confirmed');
    sub.stop();
    await abandoned.end().catch(() => undefined);
  });

  it('an unreachable replica: reads go to the primary, /metrics says so', async () => {
    await set.standby.stop();
    await expect.poll(async () => gauge(await metrics(app), 'gateway_replica_up'), { timeout: 5_000, interval: 200 }).toBe(0);
    const m = await metrics(app);
    expect(m).toMatch(/^gateway_replica_lag_seconds nan$/im); // prom-client prints NaN as "Nan"; Prometheus reads either
    expect(gauge(m, 'gateway_replica_in_use')).toBe(0);
    const created = await createPaymentRest(app, shop.apiKey, { amount: 170_000 });
    expect(await exportedIds(app)).toContain(created.body.id);
    expect(await listedIds(app)).toContain(created.body.id);
  });
});
