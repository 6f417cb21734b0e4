/**
 * Preloaded into a measured service process (`node --expose-gc --import
 * bench/subscriptions/probe.ts dist/main.mjs --role …`, spawned with an IPC channel; Node runs this
 * file with its own type stripping, so it holds only erasable TypeScript and imports only Node's modules): answers the bench
 * with the process's memory after full garbage collection, what its notifier holds, and, on request,
 * a heap snapshot. The service itself runs unchanged.
 */
import { readFileSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';
import diagnostics from 'node:diagnostics_channel';

/** `memory`: after full GC; `peek`: as it is, no collection (cheap enough to take under load). */
export type ProbeRequest = { id: number; kind: 'memory' | 'peek' | 'snapshot'; path?: string };
/**
 * `lazyFree`: the part of `rss` given back but reclaimed by the kernel only when it needs it
 * (MADV_FREE). `v8Pages` / `mallocHeap`: resident in V8's 256 KiB heap pages / in malloc's heap
 * (from /proc/self/smaps), which tells V8's high-water mark from native memory.
 */
export type ProbeMemory = {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  lazyFree: number;
  v8Pages: number;
  mallocHeap: number;
  external: number;
  arrayBuffers: number;
  feeds: number;
  listeners: number;
  resources: Record<string, number>;
};

// The service's notifiers, as each one starts (src/events/payment-notifier.ts publishes them): the
// probe runs inside the production bundle, whose modules it cannot import or patch.
type Notifier = { stats(): { feeds: number; listeners: number } };
const notifiers: Notifier[] = [];
diagnostics.subscribe('c2c-gateway:payment-notifier:started', (notifier) => notifiers.push(notifier as Notifier));

const gc = (globalThis as { gc?: () => void }).gc;

function lazyFree(): number {
  try {
    const kb = /^LazyFree:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Resident bytes in anonymous 256 KiB mappings (V8's heap pages) and in `[heap]` (malloc). */
function residentBy(): { v8Pages: number; mallocHeap: number } {
  const out = { v8Pages: 0, mallocHeap: 0 };
  try {
    let kind: keyof typeof out | null = null;
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const range = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (range) {
        const size = parseInt(range[2]!, 16) - parseInt(range[1]!, 16);
        kind = range[3] === '[heap]' ? 'mallocHeap' : range[3] === '' && size === 256 * 1024 ? 'v8Pages' : null;
      } else if (kind && line.startsWith('Rss:')) {
        out[kind] += Number(line.split(/\s+/)[1]) * 1024;
      }
    }
  } catch {
    // Not Linux: the figures stay 0.
  }
  return out;
}

async function settled(): Promise<ProbeMemory> {
  // Several rounds: finalizers and weak callbacks free more on the next collection.
  for (let i = 0; i < 6; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
  return current();
}

function current(): ProbeMemory {
  const m = process.memoryUsage();
  const held = notifiers.map((n) => n.stats());
  const resources: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) resources[r] = (resources[r] ?? 0) + 1;
  return {
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    rss: m.rss,
    lazyFree: lazyFree(),
    ...residentBy(),
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    feeds: held.reduce((s, h) => s + h.feeds, 0),
    listeners: held.reduce((s, h) => s + h.listeners, 0),
    resources,
  };
}

if (process.send) {
  if (!gc) throw new Error('probe.ts needs node --expose-gc');
  process.on('message', (msg: ProbeRequest) => {
    void (async () => {
      if (msg.kind === 'memory') process.send!({ id: msg.id, memory: await settled() });
      if (msg.kind === 'peek') process.send!({ id: msg.id, memory: current() });
      if (msg.kind === 'snapshot') {
        await settled();
        process.send!({ id: msg.id, path: writeHeapSnapshot(msg.path) });
      }
    })();
  });
  // The channel must not keep a stopping service alive.
  process.channel?.unref();
}
