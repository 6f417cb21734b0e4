/**
 * `npm run bench -- subscriptions` (issue 22 item 5): what an idle `checkoutStatus` subscription costs
 * the API process, over SSE and over graphql-ws. The API is `src/main.ts --role api` in its own
 * process, run with `--expose-gc` and bench/subscriptions/probe.ts (heap after full GC, RSS, what the
 * notifier holds); the subscribers are bench/subscriptions/client.ts in another process. Each phase,
 * in a fresh API process after a warm-up: the heap and RSS with none open, with SUBS_COUNT (10,000)
 * open (each has had its first event), and after the client closed them all; phases alternate SSE /
 * graphql-ws over SUBS_ROUNDS (2) rounds; SUBS_IDLE_SECONDS adds the figures after that long idle
 * once closed. `--snapshot`: heap snapshots with none and with all open in the first round, and the
 * retained objects per subscription by kind and constructor, and what is still held after close
 * (bench/subscriptions/heap-diff.ts; use SUBS_COUNT=2000 with it). SUBS_CYCLES (1): open/close
 * cycles per phase; the heap after each further one tells a leak from a one-time high-water mark.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { call, CALLBACK, inLanes, machine, seedShop, startBench } from './support.js';
import type { ClientStatus, Transport } from './subscriptions/client.js';
import { diffSnapshots } from './subscriptions/heap-diff.js';
import { PRODUCTION_NODE_FLAGS } from '../test/support/process.js';
import { startScript, startService } from './subscriptions/processes.js';
import type { ProbeMemory } from './subscriptions/probe.js';

const COUNT = Number(process.env.SUBS_COUNT ?? 10_000);
const ROUNDS = Number(process.env.SUBS_ROUNDS ?? 2);
const CYCLES = Number(process.env.SUBS_CYCLES ?? 1);
const IDLE_SECONDS = Number(process.env.SUBS_IDLE_SECONDS ?? 0);
const WARMUP = 300;
const LANES = 100;
const snapshot = process.argv.includes('--snapshot');
// Public subscriptions are limited per address; every subscriber here comes from 127.0.0.1.
const ENV = { PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'info' };

const MiB = (b: number) => (b / 2 ** 20).toFixed(1);
const KiB = (b: number) => (b / 1024).toFixed(1);

type Phase = { transport: Transport; count: number; openMs: number; before: ProbeMemory; open: ProbeMemory; after: ProbeMemory; idle?: ProbeMemory; cycles: number[]; client: ClientStatus };

const setup = await startBench(ENV);
const stops: (() => Promise<void>)[] = [];
try {
  const shop = await seedShop(setup, { sandbox: true, settings: { maxCode: 9999, paymentTimeLimitSeconds: 86_400 } });
  const tokens: string[] = [];
  const started = Date.now();
  // Amounts 1,000 rials apart, 100 of them: ~100 payments per amount, well inside its code space.
  await inLanes(COUNT + WARMUP, 16, async (i) => {
    const p = await call<{ token: string }>(setup.baseUrl, 'POST', '/v1/payments', shop.apiKey, { amount: 100_000 + (i % 100) * 1_000_000, callbackUrl: CALLBACK });
    tokens.push(p.token);
  });
  process.stderr.write(`subscriptions: ${tokens.length} payments created in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  const client = await startScript('client.ts');
  stops.push(() => client.stop());
  const warm = tokens.slice(0, WARMUP);
  const measured = tokens.slice(WARMUP);

  const phases: Phase[] = [];
  const order: Transport[] = [];
  for (let r = 0; r < ROUNDS; r++) order.push(...((r % 2 === 0 ? ['sse', 'ws'] : ['ws', 'sse']) as Transport[]));
  const dir = snapshot ? await mkdtemp(path.join(os.tmpdir(), 'subs-heap-')) : '';
  if (dir) process.stderr.write(`subscriptions: heap snapshots in ${dir}\n`);
  for (const [i, transport] of order.entries()) {
    // A fresh API process per phase: RSS that one phase grew (and keeps) never hides the next one's.
    const api = await startService('api', setup.databaseUrl, ENV);
    const openAll = (list: string[]) => client.ask<{ ms: number; open: number; status: ClientStatus }>({ kind: 'open', transport, baseUrl: api.baseUrl, tokens: list, lanes: LANES });
    const closeAll = () => client.ask<{ status: ClientStatus }>({ kind: 'close' });
    const released = async () => {
      for (let k = 0; k < 200; k++) {
        const m = await api.memory();
        if (m.feeds === 0 && (m.resources.TCPSocketWrap ?? 0) <= 12) return m;
        await new Promise((r) => setTimeout(r, 250));
      }
      return api.memory();
    };
    try {
      // Warm-up: lazily built things (schema caches, pools, JIT, socket buffers) belong to the baseline.
      await openAll(warm);
      await closeAll();
      const before = await released();
      const snapshotHere = snapshot && i < 2;
      const beforeFile = snapshotHere ? await api.snapshot(path.join(dir, `${transport}-none.heapsnapshot`)) : '';
      const opened = await openAll(measured);
      const open = await api.memory();
      if (snapshotHere) {
        const openFile = await api.snapshot(path.join(dir, `${transport}-open.heapsnapshot`));
        console.log(`\nRetained per ${transport} subscription (snapshot with ${opened.open} open minus none):\n`);
        console.log(await diffSnapshots(beforeFile, openFile, opened.open));
      }
      const closed = await closeAll();
      const after = await released();
      if (snapshotHere) {
        const afterFile = await api.snapshot(path.join(dir, `${transport}-closed.heapsnapshot`));
        console.log(`\nStill held after all ${opened.open} ${transport} subscriptions closed (snapshot after close minus none, bytes in all):\n`);
        console.log(await diffSnapshots(beforeFile, afterFile, 1));
      }
      // SUBS_CYCLES > 1: open and close the same subscriptions again in this process; a leak grows
      // with every cycle, a one-time high-water mark (a table grown once) does not.
      const cycles: number[] = [];
      for (let c = 1; c < CYCLES; c++) {
        await openAll(measured);
        await closeAll();
        cycles.push((await released()).heapUsed);
      }
      // SUBS_IDLE_SECONDS: how much of what the phase took the process gives back when left idle.
      if (IDLE_SECONDS > 0) process.stderr.write(`subscriptions: ${transport} closed; API process ${api.child.pid} idle for ${IDLE_SECONDS} s\n`);
      const idle = IDLE_SECONDS > 0 ? await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000)).then(() => api.memory()) : undefined;
      phases.push({ transport, count: opened.open, openMs: opened.ms, before, open, after, idle, cycles, client: closed.status });
      process.stderr.write(`subscriptions: ${transport} ${opened.open} open in ${(opened.ms / 1000).toFixed(1)} s; heap ${MiB(before.heapUsed)} → ${MiB(open.heapUsed)} → ${MiB(after.heapUsed)} MiB\n`);
    } finally {
      await api.stop();
    }
  }

  console.log(`\n### subscriptions: ${COUNT.toLocaleString('en-US')} idle checkoutStatus subscriptions (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)\n`);
  console.log(`- ${machine(setup.dbLabel)}; API \`dist/main.mjs --role api\` (the bundle npm start runs, node ${PRODUCTION_NODE_FLAGS.join(' ')}) (NODE_ENV=production, LOG_LEVEL=info) with --expose-gc; subscribers in their own process, one connection each\n`);
  console.log('| phase | open | opened in | heap after GC: none → open → closed (MiB) | heap per subscription | heap after close | V8 heap committed: none → open → closed (MiB) | RSS: none → open → closed (MiB) | RSS per subscription | notifier after close | client errors |');
  console.log('|---|---:|---:|---|---:|---:|---|---|---:|---|---:|');
  let failed = false;
  for (const [i, p] of phases.entries()) {
    const n = p.count;
    const heapEach = (p.open.heapUsed - p.before.heapUsed) / n;
    const rssEach = (p.open.rss - p.before.rss) / n;
    const heapAfter = (p.after.heapUsed / p.before.heapUsed - 1) * 100;
    console.log(
      `| ${i + 1}. ${p.transport === 'sse' ? 'SSE' : 'graphql-ws'} | ${n} | ${(p.openMs / 1000).toFixed(1)} s | ${MiB(p.before.heapUsed)} → ${MiB(p.open.heapUsed)} → ${MiB(p.after.heapUsed)} | ${KiB(heapEach)} KiB | ${heapAfter >= 0 ? '+' : ''}${heapAfter.toFixed(1)} % | ${MiB(p.before.heapTotal)} → ${MiB(p.open.heapTotal)} → ${MiB(p.after.heapTotal)} | ${MiB(p.before.rss)} → ${MiB(p.open.rss)} → ${MiB(p.after.rss)} | ${KiB(rssEach)} KiB | ${p.after.feeds} feeds, ${p.after.listeners} listeners | ${p.client.failed} |`,
    );
    const cyclesOver = p.cycles.some((h) => h / p.before.heapUsed - 1 > 0.05);
    if (heapEach > 30 * 1024 || heapAfter > 5 || cyclesOver || p.after.feeds > 0 || p.client.failed > 0 || n < COUNT) failed = true;
    if (p.client.errors.length) console.log(`\n  errors: ${p.client.errors.join('; ')}\n`);
    console.log(`\n  RSS after close ${MiB(p.after.rss)} MiB, of which ${MiB(p.after.lazyFree)} MiB given back and reclaimable by the kernel (LazyFree)\n`);
    if (p.cycles.length) console.log(`\n  heap after GC once closed again, cycles 2..${p.cycles.length + 1}: ${p.cycles.map((h) => `${MiB(h)} MiB (${h >= p.before.heapUsed ? '+' : ''}${((h / p.before.heapUsed - 1) * 100).toFixed(1)} %)`).join(', ')}\n`);
    if (p.idle) console.log(`\n  ${IDLE_SECONDS} s after close, idle: heap ${MiB(p.idle.heapUsed)} MiB, V8 heap committed ${MiB(p.idle.heapTotal)} MiB, RSS ${MiB(p.idle.rss)} MiB, of which LazyFree ${MiB(p.idle.lazyFree)} MiB\n`);
  }
  if (failed) {
    console.log('\nTARGET MISSED: over 30 KiB of heap per subscription, heap more than 5 % above its start after close, feeds held, or client errors');
    process.exitCode = 1;
  }
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await setup.stop();
}
