import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ensureDatabase } from '../../src/db/embedded.js';
import { operatorActor } from '../../src/domain/auth/actor.js';
import { createMerchant } from '../../src/domain/merchants/merchants.js';
import { createLogger } from '../../src/logger.js';
import { startRuntime, type Role, type Runtime } from '../../src/runtime.js';

export const TEST_SECRET_KEY = 'test-secret-key-0123456789abcdef0123456789';

/** A fresh database cloned from the migrated template; nothing is shared between test files. */
export async function createTestDatabase(): Promise<string> {
  const name = `${inject('templateDb')}_f_${randomBytes(5).toString('hex')}`;
  for (let attempt = 0; ; attempt++) {
    try {
      return await ensureDatabase(inject('pgServerUrl'), name, inject('templateDb'));
    } catch (err) {
      // Two files cloning the template at the same instant can collide; a retry settles it.
      if (attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
  }
}

/**
 * The URLs a service gets for a test database (`databaseUrl`, straight to the server): the same for
 * both, or with TEST_POOLER=pgbouncer (test/support/global-setup.ts) DATABASE_URL through PgBouncer in
 * transaction mode and DATABASE_DIRECT_URL straight to the server.
 */
export function serviceUrls(databaseUrl: string): { DATABASE_URL: string; DATABASE_DIRECT_URL: string } {
  const pooler = inject('pgPoolerUrl');
  const direct = new URL(databaseUrl);
  const server = new URL(inject('pgServerUrl'));
  if (!pooler || direct.host !== server.host) return { DATABASE_URL: databaseUrl, DATABASE_DIRECT_URL: databaseUrl };
  const pooled = new URL(pooler);
  pooled.pathname = direct.pathname;
  pooled.search = direct.search;
  return { DATABASE_URL: pooled.toString(), DATABASE_DIRECT_URL: databaseUrl };
}

export function testEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...serviceUrls(databaseUrl),
    SECRET_KEY: TEST_SECRET_KEY,
    WEBHOOK_ALLOW_PRIVATE: '1',
    PORT: '0',
    ...extra,
  };
}

export type TestApp = {
  baseUrl: string;
  /** Straight to the test database, for the test's own clients (the service may use a pooler: `serviceUrls`). */
  databaseUrl: string;
  runtime: Runtime;
  deps: Runtime['deps'];
  stop: () => Promise<void>;
};

/** The real service (HTTP server, GraphQL, workers) on a random loopback port. */
export async function startTestApp(opts: { role?: Role; env?: Record<string, string>; databaseUrl?: string } = {}): Promise<TestApp> {
  const databaseUrl = opts.databaseUrl ?? (await createTestDatabase());
  const config = loadConfig(testEnv(databaseUrl, opts.env));
  const log = createLogger(config.logLevel);
  const runtime = await startRuntime({
    config,
    databaseUrl: config.databaseUrl!,
    directUrl: config.databaseDirectUrl!,
    secretKey: TEST_SECRET_KEY,
    role: opts.role ?? 'all',
    log,
    port: 0,
    host: '127.0.0.1',
  });
  const port = runtime.http?.port;
  return { baseUrl: `http://127.0.0.1:${port}`, databaseUrl, runtime, deps: runtime.deps, stop: runtime.stop };
}

/**
 * An API process by default (no workers: the test calls what they would run) and a pg client
 * straight to its database, for a file's beforeAll; `stop` for its afterAll.
 */
export async function startAppWithClient(opts: { role?: Role } = {}): Promise<{ app: TestApp; client: pg.Client; stop: () => Promise<void> }> {
  const app = await startTestApp({ role: opts.role ?? 'api' });
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  return {
    app,
    client,
    stop: async () => {
      await client.end();
      await app.stop();
    },
  };
}

export type HttpResult<T = any> = { status: number; headers: Headers; body: T; text: string };

export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** One unlabelled gauge's value as `/metrics` shows it now (no METRICS_TOKEN set). */
export async function gaugeValue(baseUrl: string, name: string): Promise<number> {
  const res = await request(baseUrl, 'GET', '/metrics');
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const line = new RegExp(`^${name} (\\S+)$`, 'm').exec(res.text);
  if (!line) throw new Error(`/metrics has no ${name}`);
  return Number(line[1]);
}

export type GqlResult<T = any> = { status: number; data: T; errors?: { message: string; path?: string[]; extensions: { code: string; details: any } }[] };

export async function gql<T = any>(baseUrl: string, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<GqlResult<T>> {
  const res = await request(baseUrl, 'POST', '/graphql', { token, body: { query, variables } });
  return { status: res.status, data: res.body?.data, errors: res.body?.errors };
}

/** Like `gql` but fails the test on any GraphQL error, returning `data`. */
export async function gqlOk<T = any>(baseUrl: string, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
  const res = await gql<T>(baseUrl, query, variables, token);
  if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`);
  return res.data;
}

/** A merchant made by the operator, with its key. */
export async function makeMerchant(app: TestApp, opts: { name?: string; credit?: number } = {}) {
  const { merchant, merchantKey } = await createMerchant(app.deps, operatorActor, {
    name: opts.name ?? 'Test merchant',
    credit: opts.credit ?? 0,
  });
  return { merchantId: merchant.id, merchantKey };
}

const CREATE_PROJECT = `mutation($input: CreateProjectInput!) { createProject(input: $input) { apiKey project { id sandbox } } }`;

/** A merchant with one project (sandbox by default) and its API key. */
export async function makeProject(app: TestApp, opts: { sandbox?: boolean; merchantKey?: string; settings?: Record<string, unknown> } = {}) {
  const merchant = opts.merchantKey ? { merchantKey: opts.merchantKey, merchantId: '' } : await makeMerchant(app);
  const data = await gqlOk(app.baseUrl, CREATE_PROJECT, { input: { name: 'Shop', sandbox: opts.sandbox ?? true, ...opts.settings } }, merchant.merchantKey);
  return { ...merchant, projectId: data.createProject.project.id as string, apiKey: data.createProject.apiKey as string };
}

const CREATE_CARD = `mutation($input: CreateCardInput!) { createCard(input: $input) { id } }`;

/** A project (sandbox unless said) with one card; live shops get a device that has sent a heartbeat. */
export async function makeShop(
  app: TestApp,
  opts: { sandbox?: boolean; credit?: number; settings?: Record<string, unknown>; card?: Record<string, unknown>; merchantKey?: string } = {},
) {
  const merchant = opts.merchantKey ? { merchantKey: opts.merchantKey, merchantId: '' } : await makeMerchant(app, { credit: opts.credit ?? 0 });
  const project = await makeProject(app, { merchantKey: merchant.merchantKey, sandbox: opts.sandbox ?? true, settings: opts.settings });
  let deviceId: string | undefined;
  let deviceToken: string | undefined;
  if (opts.sandbox === false) {
    const d = await gqlOk(app.baseUrl, `mutation { createDevice(input: { name: "Phone" }) { token device { id } } }`, {}, merchant.merchantKey);
    deviceId = d.createDevice.device.id;
    deviceToken = d.createDevice.token;
    await request(app.baseUrl, 'POST', '/v1/device/heartbeat', { token: deviceToken });
  }
  const card = await gqlOk(
    app.baseUrl,
    CREATE_CARD,
    { input: { projectId: project.projectId, deviceId, bankCode: 'mellat', cardNumber: '6104337812345678', holderName: 'Shop', ...opts.card } },
    merchant.merchantKey,
  );
  return { ...merchant, ...project, cardId: card.createCard.id as string, deviceId, deviceToken };
}

export const CALLBACK = 'https://shop.example.com/return';

export function createPaymentRest(app: TestApp, apiKey: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return request(app.baseUrl, 'POST', '/v1/payments', { token: apiKey, body: { callbackUrl: CALLBACK, ...body }, headers });
}
