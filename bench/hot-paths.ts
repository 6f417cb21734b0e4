/**
 * `npm run bench -- hot-paths`: every hot path of the service side by side with its floor
 * (bench/hot-paths/floor.ts: node:http + pg, one statement or one minimal transaction), in alternating
 * rounds. The service runs as `npm start` does (the bundle `dist/main.mjs`) in production mode with its defaults on (auth, rate
 * limiter, info logs, metrics); autocannon runs in a process of its own for every measurement.
 * BENCH_POOLER=pgbouncer runs the service through PgBouncer in transaction mode, and the floor through the
 * same pooler (its statements unnamed, as they must be there); BENCH_FLOOR=direct keeps the floor straight to PostgreSQL.
 * `--profile [graphql|get|checkout]`: instead, profiles the service (`node --cpu-prof`) under the
 * 4-card create (or the GraphQL create, or a read) and prints the top self-time entries. BENCH_SECONDS (default 8) and BENCH_ROUNDS (default 3) size the run;
 * BENCH_ONLY=<text> runs only the scenarios whose name holds the text.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { call, load, machine, seedProject, serviceArgs, startBench, startProcess, stopProcess, CALLBACK } from './support.js';
import { PRODUCTION_ENV } from '../test/support/process.js';
import type { LoadResult, LoadSpec } from './hot-paths/load.js';
import { summarize } from './hot-paths/profile.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 2;
const CONNECTIONS = 32;
const here = path.dirname(new URL(import.meta.url).pathname);

type Side = Omit<LoadSpec, 'seconds' | 'connections'>;
/**
 * `atRate`: after the saturated rounds, both sides again at fixed rates, open loop (RATE_SHARES of
 * the floor's median throughput), so the p99 is read at stated loads and not only as the queue 32
 * connections build at saturation (where p99 ≈ connections ÷ throughput, set by the machine's CPU and disk).
 */
const RATE_SHARES = [0.25, 0.5];
type Scenario = { name: string; floorName: string; floor: Side; service: Side; target: string; atRate?: boolean };

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted[sorted.length - 1]! };
};

async function main() {
  const profile = process.argv.includes('--profile');
  const setup = await startBench();
  const children: ChildProcess[] = [];
  const stops: (() => Promise<void>)[] = [];
  try {
    const base = setup.baseUrl;
    const { createMerchant } = await import('../src/domain/merchants/merchants.js');
    const { operatorActor } = await import('../src/domain/auth/actor.js');
    const { merchantKey } = await createMerchant(setup.api.deps, operatorActor, { name: 'Bench merchant', credit: 0 });
    const one = await seedProject(base, merchantKey, 'one card', 1);
    const four = await seedProject(base, merchantKey, 'four cards on one phone', 4, { phone: true });
    const fourApart = await seedProject(base, merchantKey, 'four cards, no phone', 4);
    // A live shop: its own merchant (every create reserves a fee on that merchant's row), with
    // credit for far more creates than a run makes.
    const liveMerchant = await createMerchant(setup.api.deps, operatorActor, { name: 'Bench live merchant', credit: 100_000_000_000_000 });
    const fourLive = await seedProject(base, liveMerchant.merchantKey, 'live, four cards on one phone', 4, { live: true });
    const floorOne = await seedProject(base, merchantKey, 'floor, one card', 1);
    const floorFour = await seedProject(base, merchantKey, 'floor, four cards', 4);
    const reads = await seedProject(base, merchantKey, 'reads', 1);
    let payment: { id: string; token: string } | undefined;
    for (let i = 0; i < 200; i++) payment = await call(base, 'POST', '/v1/payments', reads.apiKey, { amount: 1_000_000 + i * 10_000, callbackUrl: CALLBACK });
    await setup.api.stop();

    const env = {
      ...PRODUCTION_ENV,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: setup.databaseUrl,
      SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789',
      PORT: '0',
      // Production's limiter, counting every request, with a ceiling no benchmark reaches.
      RATE_LIMIT_PER_MINUTE: '100000000',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
      // The live shop's phone sent one heartbeat at seeding: online for the whole run.
      DEVICE_OFFLINE_SECONDS: '86400',
    };
    // BENCH_POOLER=pgbouncer: the service reaches PostgreSQL through Debian's PgBouncer in
    // transaction mode (DATABASE_URL), with DATABASE_DIRECT_URL for what needs a session; the floor
    // through the same pooler. Issue 22 item 1's second topology.
    let topology = 'service and floor straight to PostgreSQL';
    // The floor's way to the database: the same as the service's, unless BENCH_FLOOR=direct.
    let floorArgs = [setup.databaseUrl];
    if (process.env.BENCH_POOLER === 'pgbouncer') {
      const { startPgBouncer } = await import('../test/support/pgbouncer.js');
      const bouncer = await startPgBouncer({ serverUrl: setup.databaseUrl, poolSize: 20 });
      stops.push(bouncer.stop);
      Object.assign(env, { DATABASE_URL: bouncer.url(setup.databaseUrl), DATABASE_DIRECT_URL: setup.databaseUrl });
      const floorDirect = process.env.BENCH_FLOOR === 'direct';
      if (!floorDirect) floorArgs = [bouncer.url(setup.databaseUrl), '--unnamed'];
      topology = `service through PgBouncer 1.18 in transaction mode (pool_size 20), sessions on DATABASE_DIRECT_URL; the floor ${
        floorDirect ? 'straight to PostgreSQL (BENCH_FLOOR=direct)' : 'through the same pooler, its statements unnamed'
      }`;
    } else if (process.env.BENCH_POOLER) {
      throw new Error(`BENCH_POOLER must be unset or "pgbouncer" (got "${process.env.BENCH_POOLER}")`);
    }
    const profileDir = profile ? await mkdtemp(path.join(os.tmpdir(), 'gateway-prof-')) : '';
    // BENCH_NODE_ARGS: node flags for the service (an A/B of a V8 setting); --profile adds its own.
    const nodeArgs = [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
    const service = await startProcess(serviceArgs(nodeArgs), env, /listening on port (\d+)/);
    children.push(service.child);
    const serviceUrl = `http://127.0.0.1:${service.match[1]}`;

    if (profile) {
      // `--profile graphql` profiles the GraphQL create instead of the REST one; `--profile get` and
      // `--profile checkout` the reads.
      const which = (['graphql', 'get', 'checkout'] as const).find((w) => process.argv.includes(w)) ?? 'rest';
      const common = { url: serviceUrl, seconds: SECONDS * 2, connections: CONNECTIONS };
      const specs: Record<typeof which, [string, LoadSpec]> = {
        rest: ['POST /v1/payments (4 cards)', { ...common, method: 'POST', path: '/v1/payments', token: four.apiKey, body: 'rest-create' }],
        graphql: ['GraphQL createPayment (4 cards)', { ...common, method: 'POST', path: '/graphql', token: four.apiKey, body: 'gql-create' }],
        get: ['GET /v1/payments/{id}', { ...common, method: 'GET', path: `/v1/payments/${payment!.id}`, token: reads.apiKey }],
        checkout: ['GET /v1/checkout/{token}', { ...common, method: 'GET', path: `/v1/checkout/${payment!.token}` }],
      };
      const [label, spec] = specs[which];
      const r = await load(spec);
      await stopProcess(service.child);
      const file = (await readdir(profileDir)).find((f) => f.endsWith('.cpuprofile'))!;
      const s = summarize(path.join(profileDir, file), 25);
      console.log(`${label} under --cpu-prof: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms; profile ${path.join(profileDir, file)}\n`);
      console.log(['self time by function:', ...s.byFunction, '', 'self time by package / file:', ...s.byPlace].join('\n'));
      return;
    }

    const floorProc = await startProcess(['--import', 'tsx', path.join(here, 'hot-paths/floor.ts'), ...floorArgs], {}, /listening (\d+)/);
    children.push(floorProc.child);
    const floorUrl = `http://127.0.0.1:${floorProc.match[1]}`;

    const restCreate = (p: { projectId: string; apiKey: string }): Side => ({ url: serviceUrl, method: 'POST', path: '/v1/payments', token: p.apiKey, body: 'rest-create' });
    const floorCreate = (projectId: string): Side => ({ url: floorUrl, method: 'POST', path: '/v1/payments', body: 'rest-create', projectId });
    const scenarios: Scenario[] = [
      { name: 'POST /v1/payments, 4 cards on one phone', floorName: 'minimal create', floor: floorCreate(floorFour.projectId), service: restCreate(four), target: '≥ 0.6, p99 ≤ 100 ms', atRate: true },
      { name: 'POST /v1/payments, live, 4 cards on one phone', floorName: 'minimal create', floor: floorCreate(floorFour.projectId), service: restCreate(fourLive), target: '(beside it: a fee reserved per create)' },
      { name: 'POST /v1/payments, 4 cards, no phone', floorName: 'minimal create', floor: floorCreate(floorFour.projectId), service: restCreate(fourApart), target: '(beside it)' },
      { name: 'POST /v1/payments, 1 card', floorName: 'minimal create', floor: floorCreate(floorOne.projectId), service: restCreate(one), target: '≥ 0.5' },
      {
        name: 'GraphQL createPayment, 4 cards on one phone',
        floorName: 'REST create (service)',
        floor: restCreate(four),
        service: { url: serviceUrl, method: 'POST', path: '/graphql', token: four.apiKey, body: 'gql-create' },
        target: '≥ 0.9',
      },
      {
        name: 'GET /v1/payments/{id}',
        floorName: 'one SELECT',
        floor: { url: floorUrl, method: 'GET', path: `/v1/payments/${payment!.id}` },
        service: { url: serviceUrl, method: 'GET', path: `/v1/payments/${payment!.id}`, token: reads.apiKey },
        target: '≥ 0.5',
      },
      {
        name: 'POST /v1/payments/{id}/verify',
        floorName: 'one UPDATE',
        floor: { url: floorUrl, method: 'POST', path: `/v1/payments/${payment!.id}/verify`, body: 'empty' },
        service: { url: serviceUrl, method: 'POST', path: `/v1/payments/${payment!.id}/verify`, token: reads.apiKey, body: 'empty' },
        target: '≥ 0.4',
      },
      {
        name: 'GET /v1/checkout/{token}',
        floorName: 'one SELECT (3 tables)',
        floor: { url: floorUrl, method: 'GET', path: `/v1/checkout/${payment!.token}` },
        service: { url: serviceUrl, method: 'GET', path: `/v1/checkout/${payment!.token}` },
        target: '≥ 0.5',
      },
      {
        name: 'GET /v1/payments (20 of 200)',
        floorName: 'one SELECT',
        floor: { url: floorUrl, method: 'GET', path: `/v1/payments?project=${reads.projectId}` },
        service: { url: serviceUrl, method: 'GET', path: '/v1/payments?pageSize=20', token: reads.apiKey },
        target: '≥ 0.5',
      },
    ];

    const lines = [
      `- machine: ${machine(setup.dbLabel)}`,
      `- ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per side after ${WARMUP_SECONDS} s warm-up each; service: dist/main.mjs (npm start's bundle, role all, node ${serviceArgs(nodeArgs).slice(0, -1).join(' ')}), NODE_ENV=production, LOG_LEVEL=info, limiter on, DATABASE_POOL_SIZE ${process.env.DATABASE_POOL_SIZE ?? 'unset (requests 10, jobs 24)'}`,
      `- topology: ${topology}`,
      '',
      '| scenario | floor | floor req/s | floor p50 / p99 ms | service req/s | service p50 / p99 ms | ratio median (min–max) | target |',
      '|---|---|---:|---:|---:|---:|---:|---|',
    ];
    // BENCH_ONLY=<text>: only the scenarios whose name holds it (a quicker A/B of one path).
    const only = process.env.BENCH_ONLY;
    const rated: string[] = [];
    // ROUNDS rounds of both sides, saturated or at `rate`, each after its warm-up.
    const alternated = async (s: Scenario, rate?: number) => {
      const runs: Record<'floor' | 'service', LoadResult[]> = { floor: [], service: [] };
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate which side goes first, so a drift of the machine's load favours neither.
        const order: ['floor' | 'service', Side][] = round % 2 === 0 ? [['floor', s.floor], ['service', s.service]] : [['service', s.service], ['floor', s.floor]];
        for (const [side, spec] of order) {
          await load({ ...spec, seconds: WARMUP_SECONDS, connections: CONNECTIONS, rate });
          const r = await load({ ...spec, seconds: SECONDS, connections: CONNECTIONS, rate });
          runs[side].push(r);
          if (r.non2xx || r.errors) console.error(`${s.name}${rate ? ` at ${rate}/s` : ''} (${side}): ${r.non2xx} non-2xx, ${r.errors} errors; ${r.firstErrors.join(' | ')}`);
        }
      }
      return runs;
    };
    for (const s of only ? scenarios.filter((sc) => sc.name.includes(only)) : scenarios) {
      const { floor: floorRuns, service: serviceRuns } = await alternated(s);
      const ratios = serviceRuns.map((r, i) => r.rps / floorRuns[i]!.rps);
      const f = stats(floorRuns.map((r) => r.rps));
      const v = stats(serviceRuns.map((r) => r.rps));
      const rt = stats(ratios);
      const latency = (runs: LoadResult[]) => {
        const p99 = stats(runs.map((r) => r.p99));
        return `${stats(runs.map((r) => r.p50)).median} / ${p99.median} (max ${p99.max})`;
      };
      const line = `| ${s.name} | ${s.floorName} | ${f.median.toFixed(0)} | ${latency(floorRuns)} | ${v.median.toFixed(0)} | ${latency(serviceRuns)} | ${rt.median.toFixed(2)} (${rt.min.toFixed(2)}–${rt.max.toFixed(2)}) | ${s.target} |`;
      console.error(line);
      lines.push(line);
      for (const share of s.atRate ? RATE_SHARES : []) {
        const rate = Math.max(1, Math.round(f.median * share));
        const at = await alternated(s, rate);
        const served = (runs: LoadResult[]) => stats(runs.map((r) => r.rps)).median.toFixed(0);
        const row = `| ${s.name} | ${rate} req/s (${share * 100} % of the floor's saturated throughput) | ${served(at.floor)} | ${latency(at.floor)} | ${served(at.service)} | ${latency(at.service)} |`;
        console.error(row);
        rated.push(row);
      }
    }
    console.log(`\n${lines.join('\n')}`);
    if (rated.length) {
      console.log(`\nAt a fixed rate, open loop (requests sent on schedule over at most ${CONNECTIONS} sockets, latency counted from when each was due; ${ROUNDS} alternating rounds of ${SECONDS} s per side): the latency of a request at a stated load, not the saturation queue\n`);
      console.log(['| scenario | load | floor req/s | floor p50 / p99 ms | service req/s | service p50 / p99 ms |', '|---|---|---:|---:|---:|---:|', ...rated].join('\n'));
    }
  } finally {
    for (const c of children) await stopProcess(c);
    for (const stop of stops) await stop();
    await setup.stop();
  }
}

await main();
