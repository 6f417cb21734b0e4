import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase, freePort, startEmbeddedPostgres, type EmbeddedServer } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { createPaymentRest, gql, makeShop, request, startTestApp, type TestApp } from '../support/harness.js';

// The database goes away under a running API (a crash, a failover before the pooler follows):
// every request that needs it is 503 unavailable with Retry-After, on both doors, never a 500
// (src/db/errors.ts `isConnectionLost`). Its own PostgreSQL server, stopped in the middle.

describe('the database down', () => {
  let dir: string;
  let server: EmbeddedServer;
  // Reassigned when the server is started again.
  let app: TestApp;
  let shop: Awaited<ReturnType<typeof makeShop>>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gateway-down-'));
    server = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: await freePort(), fast: true });
    const databaseUrl = await ensureDatabase(server.serverUrl, 'gateway_down');
    await migrate(databaseUrl);
    app = await startTestApp({ databaseUrl, role: 'api' });
    shop = await makeShop(app);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await server?.stop().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers 503 unavailable with Retry-After on REST and unavailable on GraphQL, and serves again once it is back', async () => {
    const held = await createPaymentRest(app, shop.apiKey, { amount: 150_000 });
    expect(held.status).toBe(201);
    await server.stop();

    const create = await createPaymentRest(app, shop.apiKey, { amount: 160_000 }, { 'Idempotency-Key': 'down-1' });
    expect(create.status, create.text).toBe(503);
    expect(create.body.error.code).toBe('unavailable');
    expect(create.headers.get('retry-after')).toBe('1');
    const read = await request(app.baseUrl, 'GET', `/v1/payments/${held.body.id}`, { token: shop.apiKey });
    // A credential already checked may be answered from the process's cache; the read itself needs the database.
    expect(read.status, read.text).toBe(503);
    const viaGraphql = await gql(app.baseUrl, `query($id: ID!) { payment(id: $id) { id } }`, { id: held.body.id }, shop.apiKey);
    expect(viaGraphql.errors?.map((e) => e.extensions.code)).toEqual(['unavailable']);
    expect((await request(app.baseUrl, 'GET', '/readyz')).status).toBe(503);

    // Back on the same port: the pool opens new connections, and the create refused with 503 is
    // made once when the shop sends it again with its key.
    server = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: server.port, fast: true });
    await expect.poll(async () => (await request(app.baseUrl, 'GET', '/readyz')).status, { timeout: 15_000, interval: 250 }).toBe(200);
    const again = await createPaymentRest(app, shop.apiKey, { amount: 160_000 }, { 'Idempotency-Key': 'down-1' });
    expect(again.status, again.text).toBe(201);
    const replay = await createPaymentRest(app, shop.apiKey, { amount: 160_000 }, { 'Idempotency-Key': 'down-1' });
    expect(replay.body.id).toBe(again.body.id);
    expect((await request(app.baseUrl, 'GET', `/v1/payments/${held.body.id}`, { token: shop.apiKey })).status).toBe(200);
  }, 60_000);
});
