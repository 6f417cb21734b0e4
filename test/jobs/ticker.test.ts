import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger.js';
import { every } from '../../src/queue/ticker.js';

describe('every (the expiry sweep’s timer)', () => {
  it('runs at once, never overlaps itself, goes on after failures (logged), and stop waits for a run in progress', async () => {
    const lines: string[] = [];
    const log = createLogger('warn', 'test', new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    let runs = 0;
    let inFlight = 0;
    let overlapped = false;
    let finished = 0;
    const started = Date.now();
    let firstAt = 0;
    const ticker = every(
      5,
      async () => {
        if (runs === 0) firstAt = Date.now() - started;
        runs++;
        inFlight++;
        if (inFlight > 1) overlapped = true;
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        finished++;
        if (runs <= 2) throw new Error(`boom ${runs}`);
      },
      log,
      'test sweep',
    );
    while (runs < 5) await new Promise((r) => setTimeout(r, 5));
    await ticker.stop();
    const stoppedAt = runs;
    expect(finished).toBe(runs);
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toBe(stoppedAt);
    expect(overlapped).toBe(false);
    expect(firstAt).toBeLessThan(50);
    expect(lines.filter((l) => l.includes('test sweep failed; trying again'))).toHaveLength(2);
  });
});
