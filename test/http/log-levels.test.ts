import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startRuntime, type Runtime } from '../../src/runtime.js';
import { CALLBACK, createPaymentRest, createTestDatabase, gql, makeShop, request, TEST_SECRET_KEY, testEnv, type TestApp } from '../support/harness.js';

// What an operator's log shows for the answers a merchant meets every day (409, 503) and for a bug
// (500): the service runs with its logger writing into `lines`, and each case reads the lines its
// request wrote. pino levels: 30 info, 40 warn, 50 error.
type Line = { level: number; msg: string; err?: { stack?: string }; res?: { statusCode: number }; code?: string };
const lines: Line[] = [];
let runtime: Runtime;
let app: TestApp;
let baseUrl: string;
let shop: Awaited<ReturnType<typeof makeShop>>;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  const config = loadConfig(testEnv(databaseUrl));
  const log = createLogger('info', 'gateway', { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  // API only: no job workers writing lines of their own.
  runtime = await startRuntime({ config, databaseUrl, secretKey: TEST_SECRET_KEY, role: 'api', log, port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${runtime.http!.port}`;
  app = { baseUrl, databaseUrl, runtime, deps: runtime.deps, stop: runtime.stop };
  shop = await makeShop(app);
});
afterAll(() => runtime.stop());

/** The lines written while `run` was answered (the access line is written once the response has gone). */
async function linesOf(run: () => Promise<unknown>): Promise<Line[]> {
  const from = lines.length;
  await run();
  await new Promise((r) => setTimeout(r, 100));
  return lines.slice(from);
}

async function pendingPayment() {
  const res = await createPaymentRest(app, shop.apiKey, { amount: 50_000 });
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string };
}

const cancel = `mutation($t: String!) { cancelCheckout(token: $t) { status } }`;
const report = `mutation($t: String!) { reportCheckoutPayment(token: $t, input: { payerTrackingNumber: "boom" }) { status } }`;
const create = `mutation($i: CreatePaymentInput!) { createPayment(input: $i) { id } }`;
const withStack = (logged: Line[]) => logged.filter((l) => JSON.stringify(l).includes('"stack"'));

describe('log levels of answers', () => {
  it('logs a 409 invalid_state at info, without a stack, on both doors', async () => {
    const p = await pendingPayment();
    await request(baseUrl, 'POST', `/v1/checkout/${p.token}/cancel`);

    const rest = await linesOf(async () => expect((await request(baseUrl, 'POST', `/v1/checkout/${p.token}/cancel`)).status).toBe(409));
    const graphql = await linesOf(async () => expect((await gql(baseUrl, cancel, { t: p.token })).errors?.[0]?.extensions.code).toBe('invalid_state'));

    expect(rest.find((l) => l.res?.statusCode === 409)?.level).toBe(30);
    expect(graphql.find((l) => l.code === 'invalid_state')?.level).toBe(30);
    expect([...rest, ...graphql].filter((l) => l.level >= 40)).toEqual([]);
    expect(withStack([...rest, ...graphql])).toEqual([]);
  });

  it('logs a 503 no_card_available at warn, without a stack, on both doors', async () => {
    await gql(baseUrl, `mutation($id: ID!) { updateCard(id: $id, input: { active: false }) { active } }`, { id: shop.cardId }, shop.merchantKey);
    try {
      const rest = await linesOf(async () => expect((await createPaymentRest(app, shop.apiKey, { amount: 50_000 })).status).toBe(503));
      const graphql = await linesOf(async () =>
        expect((await gql(baseUrl, create, { i: { amount: 50_000, callbackUrl: CALLBACK } }, shop.apiKey)).errors?.[0]?.extensions.code).toBe('no_card_available'),
      );

      expect(rest.find((l) => l.res?.statusCode === 503)?.level).toBe(40);
      expect(graphql.find((l) => l.code === 'no_card_available')?.level).toBe(40);
      expect([...rest, ...graphql].filter((l) => l.level >= 50)).toEqual([]);
      expect(withStack([...rest, ...graphql])).toEqual([]);
    } finally {
      await gql(baseUrl, `mutation($id: ID!) { updateCard(id: $id, input: { active: true }) { active } }`, { id: shop.cardId }, shop.merchantKey);
    }
  });

  it('logs a 500 at error, with the failure’s stack, on both doors', async () => {
    // A bug stands in as a trigger that fails the payer's report of one tracking number.
    await runtime.deps.prisma.$executeRawUnsafe(
      `CREATE FUNCTION log_test_failure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'forced failure for the log test'; END $$`,
    );
    await runtime.deps.prisma.$executeRawUnsafe(
      `CREATE TRIGGER log_test_failure BEFORE UPDATE ON payments FOR EACH ROW WHEN (NEW.payer_tracking_number = 'boom') EXECUTE FUNCTION log_test_failure()`,
    );
    const p = await pendingPayment();

    const rest = await linesOf(async () =>
      expect((await request(baseUrl, 'POST', `/v1/checkout/${p.token}/report`, { body: { payerTrackingNumber: 'boom' } })).status).toBe(500),
    );
    const graphql = await linesOf(async () => expect((await gql(baseUrl, report, { t: p.token })).errors?.[0]?.extensions.code).toBe('internal_error'));

    for (const logged of [rest, graphql]) {
      const failure = logged.find((l) => l.err?.stack);
      expect(failure?.level).toBe(50);
      expect(failure?.err?.stack).toContain('forced failure for the log test');
    }
    expect(rest.find((l) => l.res?.statusCode === 500)?.level).toBe(50);
    expect(graphql.find((l) => l.code === 'internal_error')?.level).toBe(50);
  });
});
