import type { Logger } from '../logger.js';

/** A task this process runs on a timer; `stop` waits for a run in progress. */
export type Ticker = { stop: () => Promise<void> };

// After a failure (the database away, a failover) the next run waits longer, up to this.
const MAX_BACKOFF_MS = 2_000;

/**
 * Runs `task` at once, then again `ms` after each run ends, so a slow run never overlaps itself. A
 * failed run is logged and tried again, sooner than MAX_BACKOFF_MS; it never stops the ticker.
 */
export function every(ms: number, task: () => Promise<unknown>, log: Logger, name: string): Ticker {
  let stopped = false;
  let failures = 0;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout;
  const run = async () => {
    try {
      await task();
      failures = 0;
    } catch (err) {
      failures++;
      log.warn({ err, failures }, `${name} failed; trying again`);
    }
  };
  const tick = () => {
    running = run().finally(() => {
      running = null;
      if (!stopped) timer = setTimeout(tick, failures === 0 ? ms : Math.min(MAX_BACKOFF_MS, ms * 2 ** failures));
    });
  };
  timer = setTimeout(tick, 0);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
