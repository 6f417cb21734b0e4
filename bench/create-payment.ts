import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { ensureDatabase, freePort, startEmbeddedPostgres, type EmbeddedServer } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { operatorActor } from '../src/domain/auth/actor.js';
import { createMerchant } from '../src/domain/merchants/merchants.js';
import { createLogger } from '../src/logger.js';
import { startRuntime, type Runtime } from '../src/runtime.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = 2;
const CONNECTIONS = 32;
const SECRET_KEY = 'bench-secret-key-0123456789abcdef0123456789';
const CALLBACK = 'https://shop.example.com/return';
const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
// Final amounts of one requested amount span amount+10 .. amount+99,990 (maxCode 9,999), so amounts
// 100,000 apart never compete for the same held amount: 50 of them give ~500,000 free codes per card.
const AMOUNTS = Array.from({ length: 50 }, (_, i) => 500_000 + i * 100_000);

type Row = { scenario: string; result: autocannon.Result; errorBodies: string[] };

async function call(baseUrl: string, method: string, urlPath: string, token: string, body?: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: any = await res.json();
  if (!res.ok || json?.errors?.length) throw new Error(`${method} ${urlPath}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const gql = (baseUrl: string, token: string, query: string, input: Record<string, unknown>) =>
  call(baseUrl, 'POST', '/graphql', token, { query, variables: { input } }).then((r) => r.data);

async function seedProject(baseUrl: string, merchantKey: string, name: string, cards: number): Promise<string> {
  const { createProject } = await gql(baseUrl, merchantKey, 'mutation($input: CreateProjectInput!) { createProject(input: $input) { apiKey project { id } } }', {
    name,
    sandbox: true,
    maxCode: 9999,
  });
  for (let i = 0; i < cards; i++) {
    await gql(baseUrl, merchantKey, 'mutation($input: CreateCardInput!) { createCard(input: $input) { id } }', {
      projectId: createProject.project.id,
      bankCode: 'mellat',
      cardNumber: `610433781234${String(5678 + i).padStart(4, '0')}`,
      holderName: 'Bench shop',
    });
  }
  return createProject.apiKey as string;
}

async function bench(baseUrl: string, apiKey: string, method: 'GET' | 'POST', urlPath: string, body?: (n: number) => string, seconds = SECONDS) {
  const errorBodies: string[] = [];
  let n = 0;
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    requests: [
      {
        method,
        path: urlPath,
        // autocannon calls setupRequest whenever the key exists, even when it is undefined.
        ...(body ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: body(n++) }) } : {}),
        onResponse: (status, resBody) => {
          if ((status < 200 || status >= 300) && errorBodies.length < 5) errorBodies.push(`${status} ${resBody}`);
        },
      },
    ],
  });
  return { result, errorBodies };
}

async function scenario(rows: Row[], name: string, ...args: Parameters<typeof bench>) {
  await bench(args[0], args[1], args[2], args[3], args[4], WARMUP_SECONDS);
  process.stderr.write(`running: ${name} (${SECONDS}s)\n`);
  rows.push({ scenario: name, ...(await bench(...args)) });
}

function table(rows: Row[]): string {
  const ms = (v: number) => v.toFixed(v < 10 ? 1 : 0);
  return [
    '| scenario | req/s (mean) | p50 ms | p97.5 ms | p99 ms | non-2xx | conn errors |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(({ scenario: s, result: r }) =>
      `| ${s} | ${r.requests.mean.toFixed(0)} | ${ms(r.latency.p50)} | ${ms(r.latency.p97_5)} | ${ms(r.latency.p99)} | ${r.non2xx} | ${r.errors} |`),
  ].join('\n');
}

function gitRevision(): string {
  try {
    const rev = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${rev} + uncommitted changes` : rev;
  } catch {
    return 'unknown';
  }
}

async function main() {
  let tempDir: string | undefined;
  let server: EmbeddedServer | undefined;
  let runtime: Runtime | undefined;
  try {
    let databaseUrl = process.env.DATABASE_URL;
    let dbLabel = 'DATABASE_URL';
    if (!databaseUrl) {
      tempDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-bench-'));
      server = await startEmbeddedPostgres({ dir: path.join(tempDir, 'pg'), port: await freePort(), fast: false });
      databaseUrl = await ensureDatabase(server.serverUrl, 'gateway_bench');
      dbLabel = 'embedded, fast: false (fsync and synchronous_commit on)';
    }
    await migrate(databaseUrl);

    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      SECRET_KEY,
      PORT: '0',
      // The per-key limit would turn a benchmark of the hot path into one of the limiter.
      RATE_LIMIT_PER_MINUTE: '100000000',
    });
    runtime = await startRuntime({ config, databaseUrl, secretKey: SECRET_KEY, role: 'all', log: createLogger(config.logLevel), port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${runtime.http!.port}`;

    const { merchantKey } = await createMerchant(runtime.deps, operatorActor, { name: 'Bench merchant', credit: 0 });
    const oneCardKey = await seedProject(baseUrl, merchantKey, 'Bench, 1 card', 1);
    const fourCardKey = await seedProject(baseUrl, merchantKey, 'Bench, 4 cards', 4);
    const payment = await call(baseUrl, 'POST', '/v1/payments', oneCardKey, { amount: 123_450_000, callbackUrl: CALLBACK });

    const createBody = (n: number) => JSON.stringify({ amount: AMOUNTS[n % AMOUNTS.length], callbackUrl: CALLBACK });
    const rows: Row[] = [];
    await scenario(rows, 'POST /v1/payments (1 card)', baseUrl, oneCardKey, 'POST', '/v1/payments', createBody);
    await scenario(rows, 'POST /v1/payments (4 cards)', baseUrl, fourCardKey, 'POST', '/v1/payments', createBody);
    await scenario(rows, 'POST /v1/payments/{id}/verify', baseUrl, oneCardKey, 'POST', `/v1/payments/${payment.id}/verify`);
    await scenario(rows, 'GET /v1/payments?pageSize=20', baseUrl, oneCardKey, 'GET', '/v1/payments?pageSize=20');

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const pgVersion = (await client.query<{ version: string }>('select version()')).rows[0]!.version;
    const paymentCount = (await client.query<{ n: string }>('select count(*) as n from payments')).rows[0]!.n;
    await client.end();

    const cpus = os.cpus();
    const section = [
      `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `- machine: ${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.release()}`,
      `- Node ${process.version}; ${pgVersion}`,
      `- database: ${dbLabel}; service in-process (role all); revision ${gitRevision()}`,
      `- ${CONNECTIONS} connections, ${SECONDS}s per scenario after ${WARMUP_SECONDS}s warm-up; ${paymentCount} payments in the database at the end`,
      '',
      table(rows),
      '',
    ].join('\n');
    console.log(`\n${section}`);
    for (const row of rows.filter((r) => r.errorBodies.length > 0)) {
      console.log(`first error responses of ${row.scenario}:\n  ${row.errorBodies.join('\n  ')}`);
    }

    if (!existsSync(RESULTS)) {
      await writeFile(
        RESULTS,
        '# Benchmark results\n\nRun with `npm run bench -- create-payment` (that is, `node --import tsx bench/create-payment.ts`; `BENCH_SECONDS` sets the\n' +
          'seconds per scenario, default 15; `DATABASE_URL` uses that server instead of a throwaway embedded one).\n' +
          'Each run appends a section. The figures are for comparing changes on the same machine, not promises of\n' +
          'throughput elsewhere.\n\n',
      );
    }
    await appendFile(RESULTS, `${section}\n`);
    if (rows.some((r) => r.result.non2xx > 0 || r.result.errors > 0)) process.exitCode = 1;
  } finally {
    await runtime?.stop();
    await server?.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  }
}

await main();
