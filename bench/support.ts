import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadSpec } from './hot-paths/load.js';
import { loadConfig } from '../src/config.js';
import { ensureDatabase, freePort, startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { operatorActor } from '../src/domain/auth/actor.js';
import { createMerchant } from '../src/domain/merchants/merchants.js';
import { createLogger } from '../src/logger.js';
import { startRuntime, type Runtime } from '../src/runtime.js';
import { PRODUCTION_ENV, PRODUCTION_NODE_FLAGS } from '../test/support/process.js';

export const SECRET_KEY = 'bench-secret-key-0123456789abcdef0123456789';
export const CALLBACK = 'https://shop.example.com/return';

/** The environment of every process of a background benchmark. */
export function benchEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...PRODUCTION_ENV,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    SECRET_KEY,
    PORT: '0',
    WEBHOOK_ALLOW_PRIVATE: '1',
    // The per-key limit would turn a benchmark of background work into one of the limiter.
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...extra,
  };
}

export type BenchSetup = {
  databaseUrl: string;
  /** The API in this process (role api: it runs no jobs), for seeding and requests. */
  api: Runtime;
  baseUrl: string;
  dbLabel: string;
  stop: () => Promise<void>;
};

/** This process's children (from /proc; none elsewhere), with their command names. */
function children(): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = [];
  for (const entry of existsSync('/proc') ? readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppid === process.pid) out.push({ pid: Number(entry), comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // It ended while we looked.
    }
  }
  return out;
}

const onInterrupt: (() => Promise<unknown>)[] = [];
let interrupted = false;

/**
 * Ctrl-C or a kill of the benchmark: the embedded PostgreSQL runs in a process group of its own
 * (src/db/embedded.ts) and a `kill` reaches only this process, so without this the servers a
 * benchmark started outlived it, with their data directories. Every child but PostgreSQL is
 * stopped first (they hold its connections), then what `startBench` set up (the in-process API,
 * PostgreSQL, the directory), at most 20 s; exit 130.
 */
function stopOnSignal(signal: NodeJS.Signals): void {
  if (interrupted) return;
  interrupted = true;
  console.error(`${signal}: stopping every process and server this benchmark started…`);
  for (const c of children()) if (c.comm !== 'postgres') process.kill(c.pid, 'SIGTERM');
  const cleanups = [...onInterrupt].reverse().reduce((p, c) => p.then(() => c().catch(() => undefined)), Promise.resolve<unknown>(undefined));
  void Promise.race([cleanups, new Promise((r) => setTimeout(r, 20_000).unref())]).finally(() => {
    for (const c of children()) process.kill(c.pid, 'SIGKILL');
    process.exit(130);
  });
}

/**
 * A throwaway embedded Postgres (fsync on, as in production) or DATABASE_URL's, migrated, with the
 * API in this process, stopped (with every child process) on SIGINT or SIGTERM. Workers run apart:
 * `spawnWorker`, so the one worker process measured has its own event loop.
 */
export async function startBench(env: Record<string, string> = {}): Promise<BenchSetup> {
  const cleanups: (() => Promise<unknown>)[] = [];
  if (!onInterrupt.length) {
    process.once('SIGINT', stopOnSignal);
    process.once('SIGTERM', stopOnSignal);
  }
  onInterrupt.push(async () => {
    for (const c of [...cleanups].reverse()) await c().catch(() => undefined);
  });
  let databaseUrl = process.env.DATABASE_URL;
  let dbLabel = 'DATABASE_URL';
  if (!databaseUrl) {
    // BENCH_PG_DIR=<dir>: the server's data kept there (growth's GROWTH_KEEP reuses a filled database).
    const keptDir = process.env.BENCH_PG_DIR;
    const tempDir = keptDir ?? (await mkdtemp(path.join(os.tmpdir(), 'gateway-bench-')));
    if (!keptDir) cleanups.push(() => rm(tempDir, { recursive: true, force: true }));
    // BENCH_FSYNC=off compares against a database that never waits for the disk.
    const fast = process.env.BENCH_FSYNC === 'off';
    // BENCH_PG_SETTINGS=name=value,…: server settings past the defaults (a filled database of tens of GB wants shared_buffers, max_wal_size).
    const settings = (process.env.BENCH_PG_SETTINGS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    // BENCH_PG_LOG=<file>: the server's log (stderr) appended there, e.g. with BENCH_PG_SETTINGS=log_min_duration_statement=30.
    const logFile = process.env.BENCH_PG_LOG;
    const onLog = logFile ? (text: string) => appendFileSync(logFile, text) : undefined;
    const server = await startEmbeddedPostgres({ dir: path.join(tempDir, 'pg'), port: await freePort(), fast, settings, onLog });
    cleanups.push(() => server.stop());
    databaseUrl = await ensureDatabase(server.serverUrl, 'gateway_bench');
    dbLabel = fast ? 'embedded PostgreSQL, fsync and synchronous_commit off' : 'embedded PostgreSQL, fsync and synchronous_commit on';
    if (settings.length) dbLabel += ` (${settings.join(', ')})`;
  }
  await migrate(databaseUrl);
  const config = loadConfig(benchEnv(databaseUrl, env));
  const api = await startRuntime({ config, databaseUrl, secretKey: SECRET_KEY, role: 'api', log: createLogger(config.logLevel), port: 0, host: '127.0.0.1' });
  cleanups.push(() => api.stop());
  return {
    databaseUrl,
    api,
    baseUrl: `http://127.0.0.1:${api.http!.port}`,
    dbLabel,
    stop: async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    },
  };
}

/** One worker process (`npm run start:worker`), resolved once it says it runs. */
export async function spawnWorker(databaseUrl: string, env: Record<string, string> = {}) {
  return spawnRole('worker', databaseUrl, env);
}

/**
 * How `npm start` runs the service: the production bundle (`npm run build`, done by bench/run.ts
 * before each scenario), not the sources under tsx.
 */
export const SERVICE_ENTRY = 'dist/main.mjs';

/** node's arguments for one service process: npm start's flags, then `extra` (a later V8 flag wins), then the bundle. */
export const serviceArgs = (extra: readonly string[] = []): string[] => [...PRODUCTION_NODE_FLAGS, ...extra, SERVICE_ENTRY];

/**
 * Reads a child's stdout until `found` makes something of it, then drains and drops the rest. A
 * service's info log is a line per request: kept and searched whole on every chunk, it made the
 * bench's own process take the CPU the service needed, more the longer a run went.
 */
export function untilItSays<T>(child: ChildProcess, found: (out: string) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    let out = '';
    const watch = (d: Buffer) => {
      out += d.toString();
      const value = found(out);
      if (value === undefined) return;
      child.stdout!.off('data', watch);
      child.stdout!.resume();
      resolve(value);
    };
    child.stdout!.on('data', watch);
    child.on('exit', (code) => reject(new Error(`${child.spawnargs.slice(1).join(' ')} exited (${code}) before it ran: ${out}`)));
  });
}

/** One process of the service in a role (`npm run start:api` / `start:worker`), resolved once it runs; `baseUrl` for an API. */
export async function spawnRole(role: 'api' | 'worker', databaseUrl: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<{ child: ChildProcess; baseUrl: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [...serviceArgs(nodeArgs), '--role', role], {
    env: { ...process.env, ...benchEnv(databaseUrl, env) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const baseUrl = await untilItSays(child, (out) => {
    if (role === 'worker') return out.includes('worker running') ? '' : undefined;
    const port = /listening on port (\d+)/.exec(out)?.[1];
    return port === undefined ? undefined : `http://127.0.0.1:${port}`;
  });
  return {
    child,
    baseUrl,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// `any` by default: bench/hot-paths.ts reads its answers untyped.
export async function call<T = any>(baseUrl: string, method: string, urlPath: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // A 204 (the device heartbeat) has no body.
  const text = await res.text();
  const json = (text ? JSON.parse(text) : undefined) as T & { errors?: unknown[] };
  if (!res.ok || json?.errors?.length) throw new Error(`${method} ${urlPath}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export const gql = <T = any>(baseUrl: string, token: string, query: string, variables: Record<string, unknown> = {}) =>
  call<{ data: T }>(baseUrl, 'POST', '/graphql', token, { query, variables }).then((r) => r.data);

/**
 * A sandbox project with `cards` cards. With `phone`, the cards sit on one phone (one match scope),
 * as live cards always do; without, each card is its own scope (the figure kept beside it). With
 * `live`, a live project (each create reserves its fee on the merchant's row; the merchant needs
 * credit) whose phone has sent one heartbeat (it stays online as long as the service's
 * DEVICE_OFFLINE_SECONDS).
 */
export async function seedProject(
  baseUrl: string,
  merchantKey: string,
  name: string,
  cards: number,
  opts: { phone?: boolean; live?: boolean } = {},
): Promise<{ projectId: string; apiKey: string }> {
  const { createProject } = await gql(baseUrl, merchantKey, 'mutation($input: CreateProjectInput!) { createProject(input: $input) { apiKey project { id } } }', {
    input: { name, sandbox: !opts.live, maxCode: 9999 },
  });
  const device = opts.phone || opts.live
    ? (await gql(baseUrl, merchantKey, 'mutation($n: String!) { createDevice(input: { name: $n }) { token device { id } } }', { n: `${name} phone` })).createDevice
    : undefined;
  if (opts.live) await call(baseUrl, 'POST', '/v1/device/heartbeat', device.token);
  const deviceId = device?.device.id;
  for (let i = 0; i < cards; i++) {
    await gql(baseUrl, merchantKey, 'mutation($input: CreateCardInput!) { createCard(input: $input) { id } }', {
      input: { projectId: createProject.project.id, deviceId, bankCode: 'mellat', cardNumber: `610433781234${String(5678 + i).padStart(4, '0')}`, holderName: 'Bench shop' },
    });
  }
  return { projectId: createProject.project.id as string, apiKey: createProject.apiKey as string };
}

/** A child process resolved once a line of its stdout matches. */
export async function startProcess(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  const match = await untilItSays(child, (out) => ready.exec(out) ?? undefined);
  return { child, match };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(path.dirname(fileURLToPath(import.meta.url)), 'hot-paths/load.ts'), JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult) : reject(new Error(`load exited ${code}`))));
  });
}

/** A merchant (operator-made) with one project and a card; `deviceToken` set for a live project. */
export async function seedShop(setup: BenchSetup, opts: { sandbox: boolean; settings?: Record<string, unknown>; webhookUrl?: string; credit?: number }) {
  const { merchantKey } = await createMerchant(setup.api.deps, operatorActor, { name: 'Bench merchant', credit: opts.credit ?? 0 });
  const { createProject } = await gql<{ createProject: { apiKey: string; project: { id: string } } }>(
    setup.baseUrl,
    merchantKey,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { apiKey project { id } } }',
    { input: { name: 'Bench shop', sandbox: opts.sandbox, ...opts.settings } },
  );
  const projectId = createProject.project.id;
  let deviceToken: string | undefined;
  let deviceId: string | undefined;
  if (!opts.sandbox) {
    const d = await gql<{ createDevice: { token: string; device: { id: string } } }>(
      setup.baseUrl,
      merchantKey,
      'mutation { createDevice(input: { name: "Phone" }) { token device { id } } }',
    );
    deviceToken = d.createDevice.token;
    deviceId = d.createDevice.device.id;
    await call(setup.baseUrl, 'POST', '/v1/device/heartbeat', deviceToken);
  }
  await gql(setup.baseUrl, merchantKey, 'mutation($input: CreateCardInput!) { createCard(input: $input) { id } }', {
    input: { projectId, deviceId, bankCode: 'mellat', cardNumber: '6104337812345678', accountNumber: '1234567890', holderName: 'Bench shop' },
  });
  if (opts.webhookUrl) {
    await gql(setup.baseUrl, merchantKey, 'mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }', { p: projectId, u: opts.webhookUrl });
  }
  return { merchantKey, projectId, apiKey: createProject.apiKey, deviceToken };
}

/** Runs `task(i)` for i in 0..count-1, `lanes` at a time. */
export async function inLanes(count: number, lanes: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < count) await task(next++);
  }));
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The machine and software, for the figures' heading. */
export function machine(dbLabel: string): string {
  const cpus = os.cpus();
  const nproc = (() => {
    try {
      return execFileSync('nproc', { encoding: 'utf8' }).trim();
    } catch {
      return String(cpus.length);
    }
  })();
  // Other work on the machine moves these figures: the load average says how much there was.
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  return `${cpus[0]?.model ?? 'unknown CPU'}, nproc ${nproc}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${load}; Node ${process.version}; ${dbLabel}`;
}

export type Hit = { at: number; path: string; json: { paymentId?: string; event?: string } | null };

/** A local webhook receiver: `delayMs(path)` decides how long each answer takes (200 after it). */
export async function startReceiver(delayMs: (path: string) => number = () => 0) {
  const hits: Hit[] = [];
  const open = new Map<string, number>();
  const peak = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      let json: Hit['json'] = null;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        json = null;
      }
      hits.push({ at: Date.now(), path, json });
      open.set(path, (open.get(path) ?? 0) + 1);
      peak.set(path, Math.max(peak.get(path) ?? 0, open.get(path)!));
      setTimeout(() => {
        open.set(path, open.get(path)! - 1);
        if (!res.destroyed) res.writeHead(200).end('ok');
      }, delayMs(path));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    hits,
    peak,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
