/**
 * `npm run bench -- growth` (issue 40; docs/operations.md "Scale path past one primary", docs/BENCHMARKS.md "Growth"): the hot paths on a
 * database holding a year of a merchant base, side by side with the same on an empty one.
 *
 * One PostgreSQL server, two databases: the benchmark's shops are seeded through the API into the
 * first (empty: the shops, 200 payments of the read shop), which is then copied (CREATE DATABASE …
 * TEMPLATE) to the second and filled there by bench/growth/fill.ts, generated inside PostgreSQL
 * (GROWTH_SCALE, default 0.01: 100,000 payments, 200,000 bank messages, ~98,000 webhook attempts;
 * 1 is a busy year: 10 M / 20 M / 10 M). The fill is then checked: every foreign key, and the money
 * invariants of test/support/sim/invariants.ts (GROWTH_CHECK=0 skips them, for scale 1). Both
 * databases are vacuumed and analyzed (as autovacuum leaves a table that stopped growing). One
 * service process (`npm start`'s bundle, role all) runs on each; every scenario runs on both in
 * BENCH_ROUNDS (3) alternating rounds of BENCH_SECONDS (8) after a warm-up, the side that goes first
 * alternating too: the ratio filled ÷ empty per round, target ≥ 0.8. Then the hot statements, each
 * under EXPLAIN (ANALYZE, BUFFERS) on both databases, the sizes of the filled database's tables and
 * indexes, and the fill's time and disk. BENCH_ONLY=<text>[|<text>…] runs only the scenarios whose name holds one of them.
 * `--with-expiry`: the same after the scenarios, on the same fill (scale 1 is too long to fill twice).
 * `--expiry`: instead, the expiry deadline (bench/expiry-lateness.ts's 1,000 payments due in one
 * second) on the empty and the filled database, one worker process each, in turn.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkForeignKeys, fill, fillQueue, type FillStep } from './growth/fill.js';
import { explainAll } from './growth/explain.js';
import { drainDue, expiryLateness } from './growth/expiry.js';
import { call, CALLBACK, gql, load, machine, seedProject, serviceArgs, startBench, startProcess, stopProcess } from './support.js';
import type { LoadResult, LoadSpec } from './hot-paths/load.js';
import { migrate } from '../src/db/migrate.js';
import { findViolations } from '../test/support/sim/invariants.js';
import { PRODUCTION_ENV } from '../test/support/process.js';

const SCALE = Number(process.env.GROWTH_SCALE ?? 0.01);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 2;
const CONNECTIONS = 32;
const log = (s: string) => process.stderr.write(`${s}\n`);

const dbUrl = (serverUrl: string, name: string) => {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

async function main() {
  const expiryMode = process.argv.includes('--expiry');
  const withExpiry = process.argv.includes('--with-expiry');
  // GROWTH_KEEP=<dir>: the PostgreSQL server's data and the seeded shops kept in <dir>; a second run
  // with the same <dir> skips the seeding and the fill (a scale-1 fill is 40 minutes) and measures
  // the same filled database again, migrated to this checkout (one change measured at a time).
  const keep = process.env.GROWTH_KEEP ? path.resolve(process.env.GROWTH_KEEP) : undefined;
  const stateFile = keep && path.join(keep, 'state.json');
  if (keep) {
    mkdirSync(keep, { recursive: true });
    process.env.BENCH_PG_DIR = keep;
  }
  const setup = await startBench();
  const children: ChildProcess[] = [];
  try {
    const serverUrl = dbUrl(setup.databaseUrl, 'postgres');
    const emptyUrl = setup.databaseUrl;
    const filledUrl = dbUrl(serverUrl, 'gateway_growth');
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const kept = stateFile && existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Seeded) : undefined;
    if (kept && kept.scale !== SCALE) throw new Error(`GROWTH_KEEP holds a fill at scale ${kept.scale}, not ${SCALE}`);
    const seeded = kept ?? (await seedAndFill(setup, admin, filledUrl));
    if (kept) {
      log(`growth: reusing the fill kept in ${keep} (scale ${SCALE}), migrated to this checkout`);
      await setup.api.stop();
      await migrate(filledUrl);
    } else if (stateFile) writeFileSync(stateFile, JSON.stringify(seeded));
    const { four, fourLive, reads, expiryShop, phone, payment, fillMs } = seeded;
    const steps = [...seeded.steps];

    const env = (databaseUrl: string) => ({
      ...PRODUCTION_ENV,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789',
      PORT: '0',
      RATE_LIMIT_PER_MINUTE: '100000000',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
      DEVICE_OFFLINE_SECONDS: '86400',
    });

    if (expiryMode) {
      if (!kept) await fillQueue(filledUrl, SCALE, log);
      for (const url of [emptyUrl, filledUrl]) await vacuum(url);
      await admin.end();
      console.log((await expiryRounds(emptyUrl, filledUrl, expiryShop, setup.dbLabel)).join('\n'));
      return;
    }

    const services: Record<'empty' | 'filled', string> = { empty: '', filled: '' };
    for (const [side, url] of [['empty', emptyUrl], ['filled', filledUrl]] as const) {
      const s = await startProcess(serviceArgs(), env(url), /listening on port (\d+)/);
      children.push(s.child);
      services[side] = `http://127.0.0.1:${s.match[1]}`;
    }
    // pg-boss made its queues as the service started: its history now.
    if (!kept) {
      const queue = await fillQueue(filledUrl, SCALE, log);
      steps.push(...queue);
      if (stateFile) writeFileSync(stateFile, JSON.stringify({ ...seeded, steps }));
    }
    const tv = Date.now();
    for (const url of [emptyUrl, filledUrl]) await vacuum(url);
    const vacuumMs = Date.now() - tv;
    // The fill's dirty pages written out before any scenario (else the first ones share the disk
    // with the checkpointer flushing tens of GB).
    await admin.query('CHECKPOINT');
    log('growth: checking the filled database…');
    const fkBroken = process.env.GROWTH_CHECK === '0' ? ['(skipped)'] : await checkForeignKeys(filledUrl);
    const invariantsBroken = process.env.GROWTH_CHECK === '0' ? ['(skipped)'] : await findViolations(filledUrl);
    const sizes = await admin.query<{ datname: string; bytes: string }>(`SELECT datname, pg_database_size(datname) AS bytes FROM pg_database WHERE datname IN ('gateway_bench', 'gateway_growth')`);
    const tables = await tableSizes(filledUrl);
    await admin.end();

    // The scenarios: the same request on both sides (the seeded shops exist in both databases).
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const statsQuery = encodeURIComponent('{ paymentStats(groupBy: DAY, sandbox: true) { period confirmedCount confirmedAmount pendingCount expiredCount } }');
    type Side = Omit<LoadSpec, 'seconds' | 'connections' | 'url'>;
    const scenarios: { name: string; spec: Side; connections?: number; sms?: 'otp' | 'withdrawal'; serial?: boolean }[] = [
      { name: 'POST /v1/payments, 4 cards on one phone', spec: { method: 'POST', path: '/v1/payments', token: four.apiKey, body: 'rest-create' } },
      { name: 'POST /v1/payments, live, 4 cards on one phone', spec: { method: 'POST', path: '/v1/payments', token: fourLive.apiKey, body: 'rest-create' } },
      { name: 'GraphQL createPayment, 4 cards on one phone', spec: { method: 'POST', path: '/graphql', token: four.apiKey, body: 'gql-create' } },
      { name: 'GET /v1/payments/{id}', spec: { method: 'GET', path: `/v1/payments/${payment!.id}`, token: reads.apiKey } },
      { name: 'GET /v1/checkout/{token}', spec: { method: 'GET', path: `/v1/checkout/${payment!.token}` } },
      { name: 'GET /v1/payments (page of 20, with total)', spec: { method: 'GET', path: '/v1/payments?pageSize=20', token: reads.apiKey } },
      { name: 'GET /v1/payments (last 30 days, page of 20)', spec: { method: 'GET', path: `/v1/payments?pageSize=20&from=${encodeURIComponent(since)}`, token: reads.apiKey } },
      { name: 'paymentStats (30 days by day, GraphQL GET)', spec: { method: 'GET', path: `/graphql?query=${statsQuery}`, token: reads.apiKey } },
      { name: 'POST /v1/device/messages (a one-time password: stored, ignored)', spec: { method: 'POST', path: '/v1/device/messages' }, sms: 'otp' },
      { name: 'POST /v1/device/messages (a bank withdrawal: parsed, ignored)', spec: { method: 'POST', path: '/v1/device/messages' }, sms: 'withdrawal' },
      // Exports: one at a time (the service runs at most 3 at once per shop and answers 429 past that), each read to its last byte.
      { name: 'GET /v1/exports/payments (30 days, CSV, one at a time)', spec: { method: 'GET', path: `/v1/exports/payments?from=${encodeURIComponent(since)}`, token: reads.apiKey }, serial: true },
    ];
    const only = process.env.BENCH_ONLY;
    let seed = 1;
    const lines = [
      `- machine: ${machine(setup.dbLabel)}`,
      `- scale ${SCALE}: ${Math.round(10_000_000 * SCALE).toLocaleString('en')} payments over 12 months; both databases on one PostgreSQL server, one service process (dist/main.mjs, role all) on each`,
      `- ${ROUNDS} alternating rounds of ${SECONDS} s per side after ${WARMUP_SECONDS} s warm-up each, ${CONNECTIONS} connections (exports: one at a time, each read to its last byte)`,
      '',
      '| scenario | empty req/s | empty p50 / p99 ms | filled req/s | filled p50 / p99 ms | ratio median (min–max) | ≥ 0.8 |',
      '|---|---:|---:|---:|---:|---:|---|',
    ];
    // BENCH_ONLY=a|b: the scenarios whose name holds any of them.
    for (const s of only ? scenarios.filter((sc) => only.split('|').some((o) => sc.name.includes(o))) : scenarios) {
      const runs: Record<'empty' | 'filled', LoadResult[]> = { empty: [], filled: [] };
      const connections = s.connections ?? CONNECTIONS;
      for (let round = 0; round < ROUNDS; round++) {
        const order: ('empty' | 'filled')[] = round % 2 === 0 ? ['empty', 'filled'] : ['filled', 'empty'];
        for (const side of order) {
          const spec = { ...s.spec, url: services[side], connections };
          const measure = (seconds: number) =>
            s.sms ? smsLoad({ url: services[side], token: phone, seconds, connections, kind: s.sms, seed: seed++ }) : s.serial ? serialLoad(services[side], s.spec, seconds) : load({ ...spec, seconds });
          await measure(WARMUP_SECONDS);
          const r = await measure(SECONDS);
          if (r.non2xx || r.errors) log(`${s.name} (${side}): ${r.non2xx} non-2xx, ${r.errors} errors; ${r.firstErrors.join(' | ')}`);
          runs[side].push(r);
        }
      }
      const ratios = runs.filled.map((r, i) => r.rps / runs.empty[i]!.rps);
      const lat = (rs: LoadResult[]) => `${median(rs.map((r) => r.p50))} / ${median(rs.map((r) => r.p99))}`;
      const m = median(ratios);
      const line = `| ${s.name} | ${median(runs.empty.map((r) => r.rps)).toFixed(0)} | ${lat(runs.empty)} | ${median(runs.filled.map((r) => r.rps)).toFixed(0)} | ${lat(runs.filled)} | ${m.toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) | ${m >= 0.8 ? 'yes' : '**no**'} |`;
      log(line);
      lines.push(line);
    }
    for (const c of children.splice(0)) await stopProcess(c);

    const explains = await explainAll({ emptyUrl, filledUrl, readsProjectId: reads.projectId, paymentId: payment!.id, token: payment!.token });
    // --with-expiry: the expiry deadline on the same two databases (a scale-1 fill is too long to make twice).
    const expiryReport = withExpiry ? ['', ...(await expiryRounds(emptyUrl, filledUrl, expiryShop, setup.dbLabel))] : [];
    const size = (name: string) => Number(sizes.rows.find((r) => r.datname === name)?.bytes ?? 0);
    const report = [
      `### growth (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC), scale ${SCALE}`,
      '',
      ...lines,
      '',
      `Fill: ${(fillMs / 1000).toFixed(0)} s in PostgreSQL (+ pg-boss history), then VACUUM (ANALYZE) of both databases ${(vacuumMs / 1000).toFixed(0)} s; database sizes: empty ${mb(size('gateway_bench'))} MB, filled ${mb(size('gateway_growth'))} MB. Foreign keys broken: ${fkBroken.length ? fkBroken.join('; ') : 'none'}. Money invariants broken: ${invariantsBroken.length ? invariantsBroken.join('; ') : 'none'}.`,
      '',
      '| fill step | rows | s |',
      '|---|---:|---:|',
      ...steps.map((s) => `| ${s.step} | ${s.rows} | ${(s.ms / 1000).toFixed(1)} |`),
      '',
      '| table (filled) | rows (estimate) | table MB | indexes MB |',
      '|---|---:|---:|---:|',
      ...tables.map((t) => `| ${t.name} | ${t.rows} | ${mb(t.table)} | ${mb(t.indexes)} |`),
      '',
      ...explains,
      ...expiryReport,
    ];
    console.log(`\n${report.join('\n')}`);
  } finally {
    for (const c of children) await stopProcess(c);
    await setup.stop();
  }
}

type Shop = Awaited<ReturnType<typeof seedProject>>;
type Seeded = { scale: number; four: Shop; fourLive: Shop; reads: Shop; expiryShop: Shop; phone: string; payment: { id: string; token: string }; steps: FillStep[]; fillMs: number };

/** The benchmark's shops seeded through the API into the empty database, copied, and the copy filled. */
async function seedAndFill(setup: Awaited<ReturnType<typeof startBench>>, admin: pg.Client, filledUrl: string): Promise<Seeded> {
  const base = setup.baseUrl;
  const { createMerchant } = await import('../src/domain/merchants/merchants.js');
  const { operatorActor } = await import('../src/domain/auth/actor.js');
  const { merchantKey } = await createMerchant(setup.api.deps, operatorActor, { name: 'Bench merchant', credit: 0 });
  const four = await seedProject(base, merchantKey, 'four cards on one phone', 4, { phone: true });
  const liveMerchant = await createMerchant(setup.api.deps, operatorActor, { name: 'Bench live merchant', credit: 100_000_000_000_000 });
  const fourLive = await seedProject(base, liveMerchant.merchantKey, 'live, four cards on one phone', 4, { live: true });
  const reads = await seedProject(base, merchantKey, 'reads', 1);
  // A shop whose deadlines --expiry moves (its own time limit: an hour, so none expires before).
  const expiryShop = await seedProject(base, merchantKey, 'expiry', 1);
  // A phone of the live merchant, for the device path (its messages: bench/growth/sms-load.ts).
  const phone = (await gql(base, liveMerchant.merchantKey, 'mutation { createDevice(input: { name: "SMS bench phone" }) { token } }')).createDevice.token as string;
  await call(base, 'POST', '/v1/device/heartbeat', phone);
  let payment: { id: string; token: string } | undefined;
  for (let i = 0; i < 200; i++) payment = await call(base, 'POST', '/v1/payments', reads.apiKey, { amount: 1_000_000 + i * 10_000, callbackUrl: CALLBACK });
  await setup.api.stop();
  await admin.query('CREATE DATABASE gateway_growth TEMPLATE gateway_bench');
  log(`growth: filling at scale ${SCALE} (${Math.round(10_000_000 * SCALE)} payments)…`);
  const t0 = Date.now();
  const steps = await fill(filledUrl, SCALE, log);
  return { scale: SCALE, four, fourLive, reads, expiryShop, phone, payment: { id: payment!.id, token: payment!.token }, steps, fillMs: Date.now() - t0 };
}

/** One request at a time for `seconds`, each body read to its end: req/s and latency (ms) of whole downloads. */
async function serialLoad(url: string, spec: { method: string; path: string; token?: string }, seconds: number): Promise<LoadResult> {
  const times: number[] = [];
  const firstErrors: string[] = [];
  let non2xx = 0;
  const end = Date.now() + seconds * 1000;
  const started = Date.now();
  while (Date.now() < end) {
    const t = performance.now();
    const res = await fetch(`${url}${spec.path}`, { method: spec.method, headers: spec.token ? { authorization: `Bearer ${spec.token}` } : {} });
    const text = await res.text();
    times.push(performance.now() - t);
    if (!res.ok) {
      non2xx++;
      if (firstErrors.length < 3) firstErrors.push(`${res.status} ${text.slice(0, 200)}`);
    }
  }
  const sorted = times.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
  return { rps: times.length / ((Date.now() - started) / 1000), p50: pct(50), p99: pct(99), non2xx, errors: 0, firstErrors };
}

/** bench/growth/sms-load.ts in a process of its own (as `load` runs bench/hot-paths/load.ts). */
function smsLoad(spec: { url: string; token: string; seconds: number; connections: number; kind: 'otp' | 'withdrawal'; seed: number }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'growth/sms-load.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', file, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult) : reject(new Error(`sms-load exited ${code}`))));
  });
}

async function vacuum(url: string) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('VACUUM (ANALYZE)');
  } finally {
    await db.end();
  }
}

async function tableSizes(url: string) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ name: string; rows: string; table: string; indexes: string }>(
      `SELECT c.oid::regclass::text AS name, c.reltuples::bigint AS rows, pg_table_size(c.oid) AS table, pg_indexes_size(c.oid) AS indexes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND n.nspname IN ('public', 'pgboss') AND pg_total_relation_size(c.oid) > 1048576
       ORDER BY pg_total_relation_size(c.oid) DESC`,
    );
    return rows.map((r) => ({ name: r.name, rows: Number(r.rows), table: Number(r.table), indexes: Number(r.indexes) }));
  } finally {
    await db.end();
  }
}

/**
 * The expiry deadline (bench/growth/expiry.ts) on both databases, one worker process per run,
 * BENCH_ROUNDS rounds alternated (empty, filled, then filled, empty). GROWTH_EXPIRY_AB=<another
 * bundle>: each database with that build's worker too, alternated with this one's.
 */
async function expiryRounds(emptyUrl: string, filledUrl: string, expiryShop: { projectId: string }, dbLabel: string): Promise<string[]> {
  const rows: string[] = [];
  const builds = ['dist/main.mjs', ...(process.env.GROWTH_EXPIRY_AB ? [process.env.GROWTH_EXPIRY_AB] : [])];
  const drains = [];
  for (const [side, url] of [['empty', emptyUrl], ['filled', filledUrl]] as const) drains.push({ side, ...(await drainDue(url, log)) });
  for (let round = 0; round < ROUNDS; round++) {
    const sides = round % 2 === 0 ? [['empty', emptyUrl], ['filled', filledUrl]] : [['filled', filledUrl], ['empty', emptyUrl]];
    const entries = round % 2 === 0 ? builds : [...builds].reverse();
    for (const [side, url] of sides) for (const entry of entries) {
      const r = await expiryLateness(url!, expiryShop, log, entry);
      const row = `| ${side} | ${entry} | ${round + 1} | ${r.count} | ${r.expired} | ${r.p50} | ${r.p99} | ${r.max} | ${r.othersDue} | ${r.walMb} | ${r.fpi} | ${r.checkpointerWrites} | ${r.blocksRead} | ${os.loadavg()[0]!.toFixed(1)} |`;
      log(row);
      rows.push(row);
    }
  }
  return [
    `### growth expiry (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC), scale ${SCALE}`,
    '',
    `- ${machine(dbLabel)}; one worker process per run (default EXPIRY_CONCURRENCY)`,
    `- before the bursts, the payments falling due in the next 30 minutes (the load scenarios' own) made due and expired by a worker: ${drains.map((d) => `${d.side} ${d.drained} in ${d.seconds.toFixed(1)} s`).join(', ')}`,
    '',
    '(WAL, full-page images and the checkpointer\'s writes are the whole server\'s during the run; blocks read are that database\'s, from outside shared_buffers, with the four tables (heap) or indexes that read most)',
    '',
    '| database | worker bundle | round | payments | expired | lateness p50 s | p99 s | max s | other payments due | WAL MB | full-page images | checkpointer writes | blocks read | load (1 min) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    ...rows,
  ];
}

await main();
