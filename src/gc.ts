/**
 * V8's `gc`, present when node runs with `--expose-gc` (`npm start` does: package.json
 * `config.nodeFlags`); absent otherwise (`npm run dev`, a deployment that drops the flag), where
 * asking for a GC does nothing and V8 collects on its own schedule.
 */
type Gc = (options: { type: 'major' | 'minor'; execution: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => void;
const gc = (globalThis as { gc?: Gc }).gc;

/**
 * Asks V8 for a full GC in a task of its own (`execution: 'async'`: the caller is not paused for
 * it). For work that makes much short-lived garbage at a steady rate, where V8's own schedule lets
 * the promoted part of it float for tens of MB before it collects (src/domain/exports/export.ts).
 */
export function collectGarbageSoon(): void {
  gc?.({ type: 'major', execution: 'async' });
}

/**
 * Asks V8 for its memory-reducing full GC (the one it runs when memory is short: what is free is
 * given back, the young generation shrinks to its smallest), in a task of its own. Once, after
 * start-up: what starting made and no longer needs (migrations read, schemas built, Prisma's engine
 * set up) goes, and the young generation (2 × 8 MB at most, grown by start-up's allocations) starts
 * small and grows again only under a load that needs it: the API idles at ~118 MB instead of ~135.
 */
export function shrinkHeapSoon(): void {
  gc?.({ type: 'major', execution: 'async', flavor: 'last-resort' });
}
