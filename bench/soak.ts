/**
 * `npm run bench -- soak` (issue 22 item 6): the service under a steady mixed load for SOAK_MINUTES
 * (10): payments created and paid by their phone's Mellat SMS (SOAK_RATE, 10 a second each), their
 * `payment.confirmed` webhooks delivered to a local receiver, SOAK_SUBSCRIPTIONS (500) checkout pages
 * subscribed, and a GraphQL client's introspection twice a minute. The API and the worker are
 * `dist/main.mjs --role api` and `--role worker` (the bundle npm start runs), each in its own process (with --expose-gc and
 * bench/subscriptions/probe.ts); the load is bench/soak/load.ts in another. Reports every process's
 * heap and RSS after full GC when the load has run 30 s and when it ends, RSS as it runs once a
 * minute, p99 per minute, and errors (connection resets included). Target: the heap flat within
 * 10 % from 30 s to the end, RSS from half-way to the end, and no error.
 */
import os from 'node:os';
import { machine, seedShop, startBench } from './support.js';
import type { LoadReport } from './soak/load.js';
import { PRODUCTION_NODE_FLAGS } from '../test/support/process.js';
import { startScript, startService, type Service } from './subscriptions/processes.js';
import type { ProbeMemory } from './subscriptions/probe.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RATE = Number(process.env.SOAK_RATE ?? 10);
const SUBSCRIPTIONS = Number(process.env.SOAK_SUBSCRIPTIONS ?? 500);
const SETTLE_MS = 30_000;
const ENV = { PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'info', GRAPHQL_INTROSPECTION: '1' };

const MiB = (b: number) => (b / 2 ** 20).toFixed(1);
const change = (a: number, b: number) => `${b >= a ? '+' : ''}${((b / a - 1) * 100).toFixed(1)} %`;
const ms = (v: number) => (Number.isNaN(v) ? '–' : String(Math.round(v)));

const setup = await startBench(ENV);
const stops: (() => Promise<void>)[] = [];
try {
  const load = await startScript('../soak/load.ts');
  stops.push(() => load.stop());
  const receiverUrl = load.ready.receiverUrl as string;
  const shop = await seedShop(setup, { sandbox: false, credit: 1_000_000_000_000, webhookUrl: `${receiverUrl}/hook`, settings: { maxCode: 9999, paymentTimeLimitSeconds: 3600 } });
  const api = await startService('api', setup.databaseUrl, ENV);
  stops.push(() => api.stop());
  const worker = await startService('worker', setup.databaseUrl, ENV);
  stops.push(() => worker.stop());
  const processes: [string, Service][] = [
    ['API', api],
    ['worker', worker],
  ];
  const memory = async () => Promise.all(processes.map(([, p]) => p.memory()));

  const config = { baseUrl: api.baseUrl, apiKey: shop.apiKey, deviceToken: shop.deviceToken!, account: '1234567890', rate: RATE, seconds: MINUTES * 60, subscriptions: SUBSCRIPTIONS };
  const warm = await load.ask<{ open: number; pending: number; error?: string }>({ kind: 'warm-up', config });
  if (warm.error) throw new Error(warm.error);
  process.stderr.write(`soak: ${warm.pending} pending payments, ${warm.open} subscriptions open; ${MINUTES} min at ${RATE}/s\n`);
  const startedAt = new Date();
  const running = load.ask<{ open: number; error?: string }>({ kind: 'run' });
  // RSS and heap as they are (no collection, so the load is not paused) once a minute.
  const perMinute: ProbeMemory[][] = [];
  const loadAverages: number[] = [];
  const sampler = setInterval(() => {
    loadAverages.push(os.loadavg()[0]!);
    void Promise.all(processes.map(([, p]) => p.peek())).then((m) => perMinute.push(m), () => undefined);
  }, 60_000);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const start = await memory();
  const loadAvgStart = machine(setup.dbLabel);
  process.stderr.write(`soak: at 30 s API heap ${MiB(start[0]!.heapUsed)} MiB, RSS ${MiB(start[0]!.rss)} MiB; worker heap ${MiB(start[1]!.heapUsed)} MiB, RSS ${MiB(start[1]!.rss)} MiB\n`);
  const ran = await running;
  clearInterval(sampler);
  if (ran.error) throw new Error(ran.error);
  const last = await Promise.all(processes.map(([, p]) => p.peek()));
  const end = await memory();
  const { report } = await load.ask<{ report: LoadReport }>({ kind: 'finish' });
  await load.ask({ kind: 'close' });
  await new Promise((r) => setTimeout(r, 2_000));
  const after = await memory();

  console.log(`\n### soak: ${MINUTES} min at ${RATE} payments/s (${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC)\n`);
  console.log(`- ${loadAvgStart} (at 30 s); at the end: load average ${machine(setup.dbLabel).split('load average ')[1]!.split(';')[0]}`);
  console.log(`- API and worker: \`dist/main.mjs --role api\` / \`--role worker\` (the bundle npm start runs, node ${PRODUCTION_NODE_FLAGS.join(' ')}), NODE_ENV=production, LOG_LEVEL=info, --expose-gc; load in its own process (undici keep-alive client)`);
  console.log(`- ${report.created} payments created, ${report.deposited} paid by Mellat SMS through the device API, ${report.webhooks} payment.confirmed webhooks received (${report.missingWebhooks} missing), ${report.subscriptionsOpened} checkout subscriptions opened (SSE and graphql-ws alternately, ${SUBSCRIPTIONS} open at a time), ${report.subscriptionsCompleted} completed on their payment's confirmation, ${report.introspections} introspection answers each followed at once by a request on the same pool\n`);
  // V8 sizes its heap, and the pages it keeps resident, to the load's allocation rate over the first
  // minutes, and a forced GC may give some back: RSS is judged as the service runs (no forced GC),
  // from half-way to the end; the heap after full GC from 30 s to the end.
  const half = perMinute[Math.max(0, Math.floor(MINUTES / 2) - 1)] ?? start;
  console.log(`Heap and RSS after full GC at 30 s of load and at its end; RSS as it runs (no GC) at ${Math.max(1, Math.floor(MINUTES / 2))} min and at the end:\n`);
  console.log('| process | heap after GC: 30 s → end (MiB) | change | RSS after GC: 30 s → end (MiB) | change | RSS as it runs: half-way → end (MiB) | change | of RSS after GC, V8 heap pages / malloc: 30 s → end (MiB) | V8 heap committed: 30 s → end (MiB) | after the load and subscriptions closed: heap / RSS (MiB) |');
  console.log('|---|---|---:|---|---:|---|---:|---|---|---|');
  let flat = true;
  for (const [i, [name]] of processes.entries()) {
    const s = start[i]!;
    const e = end[i]!;
    const h = half[i]!;
    const l = last[i]!;
    const a = after[i]!;
    console.log(
      `| ${name} | ${MiB(s.heapUsed)} → ${MiB(e.heapUsed)} | ${change(s.heapUsed, e.heapUsed)} | ${MiB(s.rss)} → ${MiB(e.rss)} | ${change(s.rss, e.rss)} | ${MiB(h.rss)} → ${MiB(l.rss)} | ${change(h.rss, l.rss)} | ${MiB(s.v8Pages)} / ${MiB(s.mallocHeap)} → ${MiB(e.v8Pages)} / ${MiB(e.mallocHeap)} | ${MiB(s.heapTotal)} → ${MiB(e.heapTotal)} | ${MiB(a.heapUsed)} / ${MiB(a.rss)} |`,
    );
    if (e.heapUsed > s.heapUsed * 1.1 || l.rss > h.rss * 1.1) flat = false;
  }
  console.log('\n| minute | load avg | creates | create p50 / p99 ms | deposits | deposit p99 ms | deposit → webhook p99 ms | deposit → subscriber p99 ms | errors | API heap / RSS at its end (MiB, no GC) | worker heap / RSS |');
  console.log('|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---|');
  for (const [i, m] of report.minutes.entries()) {
    const mem = perMinute[i] ?? end;
    console.log(
      `| ${m.minute} | ${loadAverages[i]?.toFixed(1) ?? '–'} | ${m.creates} | ${ms(m.createP50)} / ${ms(m.createP99)} | ${m.deposits} | ${ms(m.depositP99)} | ${ms(m.webhookP99)} | ${ms(m.subscriberP99)} | ${m.errors} | ${MiB(mem[0]!.heapUsed)} / ${MiB(mem[0]!.rss)} | ${MiB(mem[1]!.heapUsed)} / ${MiB(mem[1]!.rss)} |`,
    );
  }
  console.log(`\nErrors seen by the load: ${report.errors} (connection resets: ${report.resets})${report.errorSamples.length ? `; first: ${report.errorSamples.join(' | ')}` : ''}`);
  const logErrors = processes.reduce((sum, [, p]) => sum + p.logged.error, 0);
  for (const [name, p] of processes) {
    console.log(`${name} logged ${p.logged.error} errors and ${p.logged.warn} warnings${p.logged.samples.length ? `: ${p.logged.samples.join(' | ')}` : ''}`);
  }
  if (!flat || report.errors > 0 || logErrors > 0) {
    console.log(`\nTARGET MISSED: ${flat ? '' : 'heap or running RSS grew more than 10 %; '}${report.errors > 0 ? 'errors seen by the load; ' : ''}${logErrors > 0 ? 'errors logged' : ''}`);
    process.exitCode = 1;
  }
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await setup.stop();
}
