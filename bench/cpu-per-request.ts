/**
 * `npm run bench -- cpu-per-request`: the service process's own CPU time (user + system, from
 * /proc/<pid>/stat) per request, for the REST and the GraphQL create and the two hot reads, each at a
 * fixed rate well under saturation (open loop, bench/hot-paths/load.ts), in alternating rounds.
 * Throughput ratios at saturation swing ±10 % on these shared machines; the CPU a request costs the
 * API process is what they come from (the database shares the cores), and it is steadier. The
 * service's idle CPU (its sweeps and timers) is measured first and subtracted.
 * BENCH_RATE (default 150 req/s), BENCH_SECONDS (default 10), BENCH_ROUNDS (default 3);
 * BENCH_ONLY=<text> runs only the scenarios whose name holds it.
 */
import { readFileSync } from 'node:fs';
import { call, benchEnv, CALLBACK, load, machine, seedProject, serviceArgs, startBench, startProcess, stopProcess } from './support.js';
import type { LoadSpec } from './hot-paths/load.js';

const RATE = Number(process.env.BENCH_RATE ?? 150);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** CPU milliseconds (user + system) the process has used so far. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "(comm)": state is field 3, utime field 14, stime field 15 (1-based, man 5 proc).
  return (Number(fields[14 - 3]) + Number(fields[15 - 3])) * TICK_MS;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const setup = await startBench();
  let service: Awaited<ReturnType<typeof startProcess>> | undefined;
  try {
    const base = setup.baseUrl;
    const { createMerchant } = await import('../src/domain/merchants/merchants.js');
    const { operatorActor } = await import('../src/domain/auth/actor.js');
    const { merchantKey } = await createMerchant(setup.api.deps, operatorActor, { name: 'Bench merchant', credit: 0 });
    const four = await seedProject(base, merchantKey, 'four cards on one phone', 4, { phone: true });
    const reads = await seedProject(base, merchantKey, 'reads', 1);
    const payment = await call<{ id: string; token: string }>(base, 'POST', '/v1/payments', reads.apiKey, { amount: 1_000_000, callbackUrl: CALLBACK });
    await setup.api.stop();

    // As bench/hot-paths.ts runs it: production mode, info logs, the limiter counting every request.
    const env = benchEnv(setup.databaseUrl, { LOG_LEVEL: 'info', PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000' });
    service = await startProcess(serviceArgs(), env, /listening on port (\d+)/);
    const pid = service.child.pid!;
    const url = `http://127.0.0.1:${service.match[1]}`;

    const scenarios: [string, Omit<LoadSpec, 'seconds' | 'connections'>][] = [
      ['POST /v1/payments (4 cards, one phone)', { url, method: 'POST', path: '/v1/payments', token: four.apiKey, body: 'rest-create' }],
      ['GraphQL createPayment (4 cards, one phone)', { url, method: 'POST', path: '/graphql', token: four.apiKey, body: 'gql-create' }],
      ['GET /v1/payments/{id}', { url, method: 'GET', path: `/v1/payments/${payment.id}`, token: reads.apiKey }],
      ['GET /v1/checkout/{token}', { url, method: 'GET', path: `/v1/checkout/${payment.token}` }],
    ];
    const only = process.env.BENCH_ONLY;
    const chosen = only ? scenarios.filter(([name]) => name.includes(only)) : scenarios;

    // Warm every path (JIT, pools, caches) before anything is counted.
    for (const [, spec] of chosen) await load({ ...spec, seconds: 10, connections: 32, rate: RATE });
    await sleep(1000);
    const idleStart = cpuMs(pid);
    await sleep(5000);
    const idlePerSecond = (cpuMs(pid) - idleStart) / 5;

    const perRequest = new Map<string, number[]>(chosen.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order, so a drift of the machine's load favours no scenario.
      const order = round % 2 === 0 ? chosen : [...chosen].reverse();
      for (const [name, spec] of order) {
        const before = cpuMs(pid);
        const r = await load({ ...spec, seconds: SECONDS, connections: 32, rate: RATE });
        const used = cpuMs(pid) - before - idlePerSecond * SECONDS;
        if (r.non2xx || r.errors) console.error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors; ${r.firstErrors.join(' | ')}`);
        const ms = used / (r.rps * SECONDS);
        perRequest.get(name)!.push(ms);
        console.error(`${name}: ${r.rps.toFixed(0)} req/s, ${ms.toFixed(3)} ms CPU per request`);
      }
    }

    const lines = [
      `- machine: ${machine(setup.dbLabel)}`,
      `- service: dist/main.mjs (role all), NODE_ENV=production, LOG_LEVEL=info, limiter on; ${RATE} req/s open loop, ${ROUNDS} alternating rounds of ${SECONDS} s per scenario; its idle ${idlePerSecond.toFixed(1)} ms CPU/s subtracted`,
      '',
      '| scenario | service CPU per request, ms: median (min–max) |',
      '|---|---:|',
    ];
    for (const [name, xs] of perRequest) lines.push(`| ${name} | ${median(xs).toFixed(3)} (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)}) |`);
    const rest = perRequest.get(scenarios[0]![0]);
    const graphql = perRequest.get(scenarios[1]![0]);
    if (rest?.length && graphql?.length) {
      const ratios = rest.map((r, i) => r / graphql[i]!);
      lines.push('', `REST create CPU ÷ GraphQL create CPU per request (round by round): ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`);
    }
    console.log(`\n${lines.join('\n')}`);
  } finally {
    if (service) await stopProcess(service.child);
    await setup.stop();
  }
}

await main();
